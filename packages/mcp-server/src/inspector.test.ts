import { drawOmen } from '@toolgate/builtins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cliPath, type HttpChild, run, startHttpCli } from './testing-fixtures/cli.js';

// The MCP Inspector CLI (@modelcontextprotocol/inspector), software nobody here wrote, lists and
// calls toolgate-mcp's tools over both transports.
const inspector = (args: string[]) =>
  run(binPath('mcp-inspector'), ['--cli', ...args], { timeoutMs: 60_000 });

// Each case starts the Inspector (a large Node program) and a server: a minute or more under load.
describe('the MCP Inspector CLI against toolgate-mcp', { timeout: 180_000 }, () => {
  let http: HttpChild;
  beforeAll(async () => {
    http = await startHttpCli();
  });
  afterAll(async () => {
    await http.stop();
  });

  it('lists the tools over stdio', async () => {
    const listed = await inspector([process.execPath, cliPath(), '--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const { tools } = JSON.parse(listed.stdout) as { tools: Array<{ name: string; annotations?: unknown }> };
    expect(tools.map((tool) => tool.name)).toEqual(['oracle']);
    expect(tools[0]!.annotations).toEqual({ readOnlyHint: true });
  });

  it('calls the oracle over stdio', async () => {
    const called = await inspector([
      process.execPath,
      cliPath(),
      '--method',
      'tools/call',
      '--tool-name',
      'oracle',
      '--tool-arg',
      'seed=inspector',
    ]);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).structuredContent).toEqual({ omen: drawOmen('inspector') });
  });

  it('lists and calls over streamable HTTP', async () => {
    const listed = await inspector([http.url, '--transport', 'http', '--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual(['oracle']);
    const called = await inspector([
      http.url,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'oracle',
      '--tool-arg',
      'seed=over-http',
    ]);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).structuredContent).toEqual({ omen: drawOmen('over-http') });
  });
});
