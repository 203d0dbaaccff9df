import { MemoryEnvironment } from '@toolgate/environment';
import { describe, expect, it } from 'vitest';
import { builtinAgent, outputOf } from './testing-fixtures/agent.js';

const many = Object.fromEntries(
  Array.from({ length: 30 }, (_, index) => [`f${String(index).padStart(2, '0')}.txt`, 'hit\nhit\n']),
);

describe('output caps', () => {
  const environment = new MemoryEnvironment({
    files: { ...many, 'big.txt': 'z'.repeat(5000) },
    commands: () => ({ stdout: 'o'.repeat(300), stderr: 'e', stdoutOmittedBytes: 7000 }),
    fetch: () => ({ body: 'b'.repeat(250) }),
  });
  const agent = builtinAgent(environment, undefined, { maxFieldChars: 100, maxMatches: 5, maxEntries: 10 });

  it('read_file caps content with a marker saying how many characters were left out', async () => {
    const { content } = outputOf(await agent.callTool('read_file', { path: 'big.txt' }));
    expect(content).toBe(`${'z'.repeat(100)}\n[… truncated: 4900 more characters not shown]`);
  });

  it('read_file caps a file of quotes by its length as returned, escaping included (not 2× the cap)', async () => {
    const quotes = new MemoryEnvironment({ files: { 'quotes.txt': '"'.repeat(5000) } });
    const reader = builtinAgent(quotes, undefined, { maxFieldChars: 100 });
    const { content } = outputOf(await reader.callTool('read_file', { path: 'quotes.txt' }));
    expect(content).toBe(`${'"'.repeat(50)}\n[… truncated: 4950 more characters not shown]`);
    const kept = (content as string).slice(0, (content as string).indexOf('\n'));
    expect(JSON.stringify(kept).length - 2).toBe(100);
  });

  it('list_dir and glob cap entries with a marker', async () => {
    const listing = outputOf(await agent.callTool('list_dir', {}));
    expect(listing.entries).toHaveLength(10);
    expect(listing.truncated).toBe('[… truncated: 21 more entries not shown]');
    const globbed = outputOf(await agent.callTool('glob', { pattern: '*.txt' }));
    expect(globbed.paths).toHaveLength(10);
    expect(globbed.truncated).toBe('[… truncated: 21 more paths not shown]');
  });

  it('search_files caps matches and says how many more there were', async () => {
    const result = outputOf(await agent.callTool('search_files', { pattern: 'hit' }));
    expect(result.matches).toEqual([
      'f00.txt:1: hit',
      'f00.txt:2: hit',
      'f01.txt:1: hit',
      'f01.txt:2: hit',
      'f02.txt:1: hit',
    ]);
    expect(result.totalMatches).toBe(60);
    expect(result.truncated).toBe('[… truncated: 55 more matches not shown]');
  });

  it('shell caps output and reports bytes the environment already dropped', async () => {
    const { stdout } = outputOf(await agent.callTool('shell', { command: 'yes' }));
    expect(stdout).toBe(
      `${'o'.repeat(100)}\n[… truncated: 200 more characters not shown]\n[… truncated: 7000 more bytes not shown]`,
    );
  });

  it('fetch caps the body', async () => {
    const { body } = outputOf(await agent.callTool('fetch', { url: 'https://example.com/' }));
    expect(body).toBe(`${'b'.repeat(100)}\n[… truncated: 150 more characters not shown]`);
  });
});
