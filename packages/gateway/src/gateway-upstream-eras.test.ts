import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath as toolgateMcpPath } from '@toolgate/mcp-server/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { changingServer, scratch } from './testing-fixtures/gateway.js';

describe('the protocol of a stdio upstream, from the config to MCPResolver', { timeout: 120_000 }, () => {
  const place = scratch();
  let gateway: Gateway | undefined;
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });

  it('speaks 2026-07-28 with toolgate-mcp when its entry says so, and auto falls back with a 2025-11-25 one', async () => {
    const path = join(place.dir, 'eras.yaml');
    const node = JSON.stringify(process.execPath);
    writeFileSync(
      path,
      `servers:
  modern: { command: ${node}, args: [${JSON.stringify(toolgateMcpPath())}, --tools, oracle], prefix: modern, protocol: 2026-07-28 }
  old: { command: ${node}, args: [${JSON.stringify(changingServer)}], prefix: old, protocol: auto }
clients:
  desktop: { tools: ["modern__*", "old__*"] }
stdio: desktop
ledger: ./eras.ledger.jsonl
`,
    );
    const config = await loadConfig(path, {});
    expect(config.servers.map((server) => [server.name, server.protocol])).toEqual([
      ['modern', '2026-07-28'],
      ['old', 'auto'],
    ]);
    gateway = await Gateway.start(config, { log: () => undefined });
    const oracle = await gateway.callTool({
      client: 'desktop',
      tool: 'modern__oracle',
      parameters: { seed: 'moss' },
    });
    expect(oracle).toMatchObject({ isError: false });
    const note = await gateway.callTool({ client: 'desktop', tool: 'old__note', parameters: { text: 'hi' } });
    expect(note).toMatchObject({ isError: false });
    expect(JSON.stringify(note)).toContain('hi');
  });
});
