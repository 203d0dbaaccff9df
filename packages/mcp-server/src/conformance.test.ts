import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, type HttpChild, run, startHttpCli } from './testing-fixtures/cli.js';

// The generic server scenarios of the MCP conformance suite (@modelcontextprotocol/conformance),
// run against `toolgate-mcp --http`. Scenarios that assume another server's tool names are left out:
// they pass falsely on an isError result.
const scenarios = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

// The suite is a separate Node program started per scenario: generous bounds for a loaded machine.
describe('the MCP conformance suite against toolgate-mcp --http', { timeout: 180_000 }, () => {
  let http: HttpChild;
  beforeAll(async () => {
    http = await startHttpCli();
  });
  afterAll(async () => {
    await http.stop();
  });

  it.each(scenarios)('passes %s', async (scenario) => {
    const result = await run(binPath('conformance'), ['server', '--url', http.url, '--scenario', scenario], {
      timeoutMs: 60_000,
    });
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(0);
    const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    expect(summary![1]).toBe(summary![2]);
    expect(summary![3]).toBe('0');
  });
});
