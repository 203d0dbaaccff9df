import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { replayGatewayLedger } from './replay.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from './serve-http.js';
import { connectHttp, everythingServer, scratch, tokens } from './testing-fixtures/gateway.js';

describe('replay of a busy gateway', { timeout: 180_000 }, () => {
  const place = scratch();
  const clients: Client[] = [];
  let gateway: Gateway | undefined;
  let endpoint: GatewayHttpEndpoint | undefined;
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await endpoint?.close();
    await gateway?.close();
    place.remove();
  });

  it('replays byte for byte, with every upstream off, a run in which two clients’ calls overlapped', async () => {
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(
      path,
      `servers:
  everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everythingServer)}, stdio], prefix: ev }
clients:
  desktop: { token_env: DESKTOP_TOKEN, tools: ["ev__trigger-long-running-operation", "ev__echo"], prompts: ["ev__*"] }
  agent: { token_env: AGENT_TOKEN, tools: ["ev__get-sum", "ev__echo"] }
ledger: ./busy.ledger.jsonl
durability: none
`,
    );
    gateway = await Gateway.start(await loadConfig(path), { log: () => undefined });
    endpoint = await serveGatewayHttp(gateway, {
      port: 0,
      env: { DESKTOP_TOKEN: tokens.desktop, AGENT_TOKEN: tokens.agent },
    });
    const connect = async (token: string) => {
      const client = new Client({ name: 'busy', version: '1.0.0' });
      clients.push(client);
      await connectHttp(client, endpoint!.url, token);
      return client;
    };
    const [desktop, agent] = await Promise.all([connect(tokens.desktop), connect(tokens.agent)]);
    // a long call of one client while the other makes many short ones, a refusal and a prompt among them
    const long = desktop.callTool({
      name: 'ev__trigger-long-running-operation',
      arguments: { duration: 2, steps: 4 },
    });
    const short = Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        index % 3 === 0
          ? agent.callTool({ name: 'ev__trigger-long-running-operation', arguments: {} })
          : agent.callTool({ name: 'ev__get-sum', arguments: { a: index, b: 1 } }),
      ),
    );
    const echoes = Promise.all(
      [1, 2, 3].map((n) => desktop.callTool({ name: 'ev__echo', arguments: { message: `m${n}` } })),
    );
    await Promise.all([long, short, echoes, desktop.getPrompt({ name: 'ev__simple-prompt' })]);
    await endpoint.close();
    endpoint = undefined;
    await gateway.close();
    gateway = undefined;
    const recorded = readFileSync(join(place.dir, 'busy.ledger.jsonl'), 'utf8');
    // the calls did overlap: another call began between the long call's start and its end
    const events = recorded
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            kind: string;
            actor: string;
            payload: { callId?: string; parameters?: { duration?: number } };
          },
      );
    const start = events.findIndex(
      (event) => event.kind === 'tool.called' && event.payload.parameters?.duration === 2,
    );
    const end = events.findIndex(
      (event) => event.kind === 'tool.returned' && event.payload.callId === events[start]!.payload.callId,
    );
    const between = events.slice(start + 1, end).filter((event) => event.kind === 'tool.called');
    expect(between.map((event) => event.actor)).toContain('agent');
    const copy = join(place.dir, 'replayed.jsonl');
    const calls = await replayGatewayLedger(join(place.dir, 'busy.ledger.jsonl'), copy);
    expect(calls).toBe(12);
    expect(readFileSync(copy, 'utf8')).toBe(recorded);
  });
});
