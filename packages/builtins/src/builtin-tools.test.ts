import { MemoryEnvironment } from '@toolgate/environment';
import { describe, expect, it } from 'vitest';
import { builtinTools } from './builtin-tools.js';
import { drawOmen } from './oracle.js';
import { builtinAgent, outputOf } from './testing-fixtures/agent.js';

const files = {
  'README.md': '# moss\nline two\nline three\n',
  src: { 'a.ts': 'export const moss = 1;\nexport function lantern() {}\n', 'b.ts': '// moss again\n' },
};

function world() {
  const commands: string[] = [];
  const environment = new MemoryEnvironment({
    files,
    commands: (command) => {
      commands.push(command);
      return { stdout: `ran ${command}\n` };
    },
    fetch: (request) => ({
      status: 200,
      body: `fetched ${request.url}`,
      headers: { 'content-type': 'text/plain' },
    }),
  });
  return { environment, commands, agent: builtinAgent(environment) };
}

describe('builtinTools', () => {
  it('returns the eight tools, with only the read-only ones parallel-safe', () => {
    const tools = builtinTools(new MemoryEnvironment());
    expect(tools.map((tool) => [tool.name, tool.parallelSafe])).toEqual([
      ['read_file', true],
      ['write_file', false],
      ['list_dir', true],
      ['glob', true],
      ['search_files', true],
      ['shell', false],
      ['fetch', false],
      ['oracle', true],
    ]);
  });

  it('fetch is parallel-safe for GET and HEAD only', () => {
    const fetch = builtinTools(new MemoryEnvironment()).find((tool) => tool.name === 'fetch')!;
    const url = 'https://example.com/';
    const safe = (method?: string) => fetch.isParallelSafe(method === undefined ? { url } : { url, method });
    expect([safe(), safe('GET'), safe('get'), safe('HEAD')]).toEqual([true, true, true, true]);
    expect([safe('POST'), safe('PUT'), safe('DELETE'), safe('PATCH'), safe('OPTIONS')]).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('runs a batch of GET fetches concurrently and a batch with a POST one after another', async () => {
    let inFlight = 0;
    let most = 0;
    const environment = new MemoryEnvironment({
      fetch: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return 'ok';
      },
    });
    const agent = builtinAgent(environment);
    const batch = (...methods: string[]) =>
      agent.callTools(
        methods.map((method) => ({ name: 'fetch', parameters: { url: 'https://example.com/', method } })),
      );
    await batch('GET', 'HEAD', 'GET');
    expect(most).toBe(3);
    most = 0;
    const results = await batch('GET', 'POST', 'DELETE');
    expect(results.map((result) => result.isError)).toEqual([false, false, false]);
    expect(most).toBe(1);
  });

  it('read_file returns lines with offset and limit', async () => {
    const output = outputOf(
      await world().agent.callTool('read_file', { path: 'README.md', offset: 2, limit: 1 }),
    );
    expect(output).toEqual({
      path: 'README.md',
      content: 'line two',
      startLine: 2,
      endLine: 2,
      totalLines: 3,
    });
  });

  it('write_file writes through the environment', async () => {
    const { agent, environment } = world();
    expect(outputOf(await agent.callTool('write_file', { path: 'out/x.md', content: 'hi' }))).toEqual({
      path: 'out/x.md',
      bytes: 2,
      created: true,
    });
    expect(environment.snapshot()['out/x.md']).toBe('hi');
  });

  it('list_dir lists the root by default', async () => {
    expect(outputOf(await world().agent.callTool('list_dir', {}))).toEqual({
      path: '.',
      entries: [
        { name: 'README.md', type: 'file' },
        { name: 'src', type: 'directory' },
      ],
    });
  });

  it('glob returns sorted matching paths', async () => {
    expect(outputOf(await world().agent.callTool('glob', { pattern: '**/*.ts' }))).toEqual({
      paths: ['src/a.ts', 'src/b.ts'],
    });
  });

  it('search_files returns "path:line: text" matches and their total', async () => {
    expect(
      outputOf(await world().agent.callTool('search_files', { pattern: 'mo+ss', glob: 'src/**' })),
    ).toEqual({
      matches: ['src/a.ts:1: export const moss = 1;', 'src/b.ts:1: // moss again'],
      totalMatches: 2,
    });
  });

  it('shell runs the command line through the environment', async () => {
    const { agent, commands } = world();
    expect(outputOf(await agent.callTool('shell', { command: 'npm test' }))).toEqual({
      exitCode: 0,
      signal: null,
      timedOut: false,
      stdout: 'ran npm test\n',
      stderr: '',
    });
    expect(commands).toEqual(['npm test']);
  });

  it('fetch returns status, headers and body', async () => {
    expect(outputOf(await world().agent.callTool('fetch', { url: 'https://example.com/a' }))).toEqual({
      url: 'https://example.com/a',
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': 'text/plain' },
      body: 'fetched https://example.com/a',
      redirects: [],
    });
  });

  it('oracle still draws the same omen for the same seed', async () => {
    expect(outputOf(await world().agent.callTool('oracle', { seed: 'moss' }))).toEqual({
      omen: drawOmen('moss'),
    });
  });

  it('reports a missing file as an error result the model can read', async () => {
    const result = await world().agent.callTool('read_file', { path: 'nope.md' });
    expect(result).toMatchObject({ isError: true, error: { code: 'NOT_FOUND' } });
  });
});
