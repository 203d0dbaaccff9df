import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cliPath,
  configText,
  connectStdio,
  scratch,
  sdkClient,
  textOf,
} from '../testing-fixtures/gateway.js';

const modernRevision = '2026-07-28';

// The built `toolgate-gateway` (pnpm --filter @toolgate/gateway... build first), spawned as a client spawns it.
describe('toolgate-gateway over stdio answers clients of both eras', { timeout: 180_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  const clients: Array<{ close(): Promise<void> }> = [];
  beforeAll(() => {
    writeFileSync(config, configText(place.workspace).replace('./gateway.ledger.jsonl', './ledgers/'));
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    place.remove();
  });

  /** A 2.x client negotiating the era (`auto`: `server/discover` first), answering each ask as told. */
  async function modernClient(answer: 'approve' | 'decline'): Promise<Client> {
    const client = new Client(
      { name: 'modern', version: '1' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } },
    );
    client.setRequestHandler('elicitation/create', () =>
      answer === 'approve' ? { action: 'accept', content: { approve: true } } : { action: 'decline' },
    );
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, '--config', config],
        env: { ...process.env } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    return client;
  }

  it('a 2.x client speaks 2026-07-28: the stdio client grant listed, an ask answered by multi-round trip', async () => {
    const client = await modernClient('approve');
    expect(client.getNegotiatedProtocolVersion()).toBe(modernRevision);
    expect(client.getServerVersion()?.name).toBe('toolgate-gateway');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('fs__read_text_file');
    expect(names).not.toContain('ev__get-sum'); // the agent's, not the stdio client's
    // policy asks before ev__echo: the gateway answers input_required, the client's retry carries the answer
    const echoed = await client.callTool({ name: 'ev__echo', arguments: { message: 'over stdio, modern' } });
    expect(textOf(echoed)).toContain('over stdio, modern');
    writeFileSync(join(place.workspace, 'note.txt'), 'hello');
    const read = await client.callTool({
      name: 'fs__read_text_file',
      arguments: { path: join(place.workspace, 'note.txt') },
    });
    expect(textOf(read)).toContain('hello');
  });

  it('a declined ask over modern stdio is not run', async () => {
    const client = await modernClient('decline');
    const result = await client.callTool({ name: 'ev__echo', arguments: { message: 'never' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/declin/);
  });

  it('a 1.x client on the same command speaks 2025-11-25, asked by elicitation as before', async () => {
    const client: LegacyClient = sdkClient(() => 'approve');
    clients.push(client);
    await connectStdio(client, config);
    const result = await client.callTool({ name: 'ev__echo', arguments: { message: 'over stdio, legacy' } });
    expect(textOf(result)).toContain('over stdio, legacy');
    // every process wrote its chain in the ledger directory: the modern answer recorded as the client's
    const ledgers = join(place.dir, 'ledgers');
    const recorded = readdirSync(ledgers)
      .map((name) => readFileSync(join(ledgers, name), 'utf8'))
      .join('');
    expect(recorded).toContain('over stdio, modern');
    expect(recorded).toContain('by input_required');
    expect(recorded).toContain('over stdio, legacy');
  });
});
