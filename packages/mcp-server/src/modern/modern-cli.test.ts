import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { drawOmen } from '@toolgate/builtins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpChild, startHttpCli } from '../testing-fixtures/cli.js';

// The built `toolgate-mcp --http` (pnpm --filter @toolgate/mcp-server... build first), as a user runs it.
describe('toolgate-mcp --http speaks MCP 2026-07-28 to a 2.x SDK client', { timeout: 120_000 }, () => {
  let http: HttpChild;
  beforeAll(async () => {
    http = await startHttpCli();
  });
  afterAll(async () => {
    await http.stop();
  });

  it('negotiates 2026-07-28 through server/discover and calls the oracle', async () => {
    const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(client.getServerVersion()?.name).toBe('toolgate-mcp');
      const result = await client.callTool({ name: 'oracle', arguments: { seed: 'by hand' } });
      expect(result.structuredContent).toEqual({ omen: drawOmen('by hand') });
    } finally {
      await client.close();
    }
  });
});
