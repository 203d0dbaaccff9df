import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type LedgerEvent, readAll } from '@toolgate/ledger';
import { PostgresStore, verifyPostgresLedger } from '@toolgate/ledger-postgres';
import {
  freshLedgerName,
  freshLedgerUrl,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
} from '@toolgate/ledger-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveTool } from '../approve.js';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import { configText, eventually, scratch, textOf, tokens } from '../testing-fixtures/gateway.js';

const env = {
  DESKTOP_TOKEN: tokens.desktop,
  AGENT_TOKEN: tokens.agent,
  TOOLGATE_GATEWAY_STATE_KEY: 'a-state-key-shared-by-the-fleet-0123456789',
};

interface Instance {
  gateway: Gateway;
  endpoint: GatewayHttpEndpoint;
  origin: string;
}

async function startInstance(config: string): Promise<Instance> {
  const gateway = await Gateway.start(await loadConfig(config, env), { log: () => undefined });
  const endpoint = await serveGatewayHttp(gateway, { env, port: 0 });
  return { gateway, endpoint, origin: new URL(endpoint.url).origin };
}

/** A 2.x MCP client (stateless 2026-07-28) whose every request goes to the next instance in turn. */
async function roundRobinClient(instances: readonly Instance[], calls: string[]): Promise<Client> {
  let next = 0;
  const roundRobin = ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const origin = instances[next++ % instances.length]!.origin;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
    if (body.method === 'tools/call') calls.push(origin);
    return fetch(new URL(url.pathname, origin), init);
  }) as typeof fetch;
  const client = new Client({ name: 'fleet-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(instances[0]!.endpoint.url), {
      requestInit: { headers: { authorization: `Bearer ${tokens.desktop}` } },
      fetch: roundRobin,
    }),
  );
  return client;
}

/** A ledger event's payload as an object (the gateway's records all are). */
type Payload = Record<string, unknown>;
const payloadOf = (event: LedgerEvent) => event.payload as Payload;

async function ledgerEvents(url: string): Promise<LedgerEvent[]> {
  const store = await PostgresStore.open(url, { create: false });
  try {
    return await readAll(store.read());
  } finally {
    await store.close();
  }
}

requirePostgresInContinuousIntegration(it);

describe.skipIf(postgresUrl === undefined)(
  `two gateway instances on one PostgreSQL (${postgresUrl ? 'a real server' : postgresSkipReason})`,
  { timeout: 180_000 },
  () => {
    const place = scratch();
    const ledger = freshLedgerUrl(postgresUrl ?? 'postgres://unset', 'fleet');
    const config = join(place.dir, 'gateway.yaml');
    const instances: Instance[] = [];
    const calls: string[] = [];
    let client: Client;

    beforeAll(async () => {
      writeFileSync(
        config,
        configText(place.workspace, 'fleet: { approvals: operator, approval_timeout_ms: 120000 }\n').replace(
          'ledger: ./gateway.ledger.jsonl',
          `ledger: ${JSON.stringify(ledger)}`,
        ),
      );
      // one after the other: the first start writes the lock file both then read
      instances.push(await startInstance(config));
      instances.push(await startInstance(config));
      client = await roundRobinClient(instances, calls);
    }, 180_000);

    afterAll(async () => {
      await client?.close();
      for (const instance of instances) {
        await instance.endpoint.close();
        await instance.gateway.close();
      }
      place.remove();
    });

    const at = (origin: string) => instances.find((instance) => instance.origin === origin)!;
    const other = (origin: string) => instances.find((instance) => instance.origin !== origin)!;

    it('serves calls round-robin from both, into one ledger that verifies with every call in order', async () => {
      const pids = new Set<string>();
      for (let index = 0; index < 8; index++) {
        const note = await client.callTool({ name: 'mine__note', arguments: { text: `call-${index}` } });
        expect(textOf(note)).toBe(`note: call-${index}`);
      }
      for (let index = 0; index < 2; index++) {
        pids.add(textOf(await client.callTool({ name: 'mine__pid', arguments: {} })));
      }
      expect(new Set(calls)).toEqual(new Set(instances.map((instance) => instance.origin)));
      expect(pids.size).toBe(2); // each instance's own upstream answered
      const verified = await verifyPostgresLedger(ledger);
      expect(verified.ok).toBe(true);
      const events = await ledgerEvents(ledger);
      const notes = events.filter(
        (event) => event.kind === 'tool.called' && payloadOf(event).tool === 'mine__note',
      );
      expect(notes.map((event) => (payloadOf(event).parameters as { text: string }).text)).toEqual(
        Array.from({ length: 8 }, (_, index) => `call-${index}`),
      );
      expect(new Set(notes.map((event) => event.runId)).size).toBe(2);
    });

    it('an approval asked at one instance is answered at the other, and the waiting call goes on', async () => {
      for (const [message, approved] of [
        ['approved at the other instance', true],
        ['denied at the other instance', false],
      ] as const) {
        const called = client.callTool({ name: 'ev__echo', arguments: { message } });
        let pending = await instances[0]!.gateway.fleet!.pending();
        await eventually(async () => {
          pending = await instances[0]!.gateway.fleet!.pending();
          return pending.length === 1;
        });
        const asked = at(calls.at(-1)!); // the instance whose call now waits
        expect(pending[0]).toMatchObject({
          client: 'desktop',
          tool: 'ev__echo',
          parameters: { message },
          instance: asked.gateway.fleet!.instance,
        });
        const answered = other(asked.origin).gateway.fleet!;
        expect(await answered.answer(pending[0]!.id, { approved, by: 'ops@fleet-test' })).toBe(true);
        // answered once: a second answer finds nothing pending
        expect(await answered.answer(pending[0]!.id, { approved: !approved, by: 'late' })).toBe(false);
        const result = (await called) as { isError?: boolean };
        if (approved) expect(textOf(result)).toContain(message);
        else {
          expect(result.isError).toBe(true);
          expect(textOf(result)).toMatch(/^PERMISSION_DENIED: .*an operator denied it/);
        }
      }
      const events = await ledgerEvents(ledger);
      const decided = events.filter(
        (event) =>
          event.kind === 'policy.decided' &&
          (payloadOf(event).answer as { by?: string } | undefined)?.by === 'ops@fleet-test',
      );
      expect(decided.map((event) => (payloadOf(event).answer as { approved: boolean }).approved)).toEqual([
        true,
        false,
      ]);
      expect((await verifyPostgresLedger(ledger)).ok).toBe(true);
    });

    it('an approve of a changed tool is applied by every instance, without a reload', async () => {
      for (const instance of instances) {
        await instance.gateway.callTool({ client: 'desktop', tool: 'mine__rewrite', parameters: {} });
      }
      for (const instance of instances) {
        await eventually(async () => !instance.gateway.resolver.servedNames().includes('mine__note'));
      }
      // the operator's approve, as the CLI runs it: the config, the lock file and the fleet's table
      await approveTool(await loadConfig(config, env), 'mine__note');
      for (const instance of instances) {
        await eventually(async () => instance.gateway.resolver.servedNames().includes('mine__note'));
      }
      for (let index = 0; index < 2; index++) {
        const note = await client.callTool({ name: 'mine__note', arguments: { text: 'after review' } });
        expect(textOf(note)).toBe('note: after review');
      }
    });
  },
);

/** A TCP forwarder to the test's PostgreSQL that the test can cut: the fleet's database becomes unreachable. */
async function cuttableForwarder(target: URL): Promise<{ url: string; cut: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on('error', () => {});
      end.on('close', () => sockets.delete(end));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

describe.skipIf(postgresUrl === undefined)(
  'a fleet whose database is unreachable',
  { timeout: 180_000 },
  () => {
    it('refuses a call that needs approval, naming the database, and serves the others', async () => {
      const place = scratch();
      const forwarder = await cuttableForwarder(new URL(postgresUrl!));
      const config = join(place.dir, 'gateway.yaml');
      const fleet = `{ database: ${JSON.stringify(forwarder.url)}, name: ${freshLedgerName('fleet-cut')}, approvals: operator }`;
      writeFileSync(config, configText(place.workspace, `fleet: ${fleet}\n`));
      const gateway = await Gateway.start(await loadConfig(config, env), { log: () => undefined });
      try {
        await forwarder.cut();
        const asked = await gateway.callTool({
          client: 'desktop',
          tool: 'ev__echo',
          parameters: { message: 'm' },
        });
        expect(asked.isError).toBe(true);
        const error = (asked as { error: { code: string; message: string } }).error;
        expect(error.code).toBe('PERMISSION_DENIED');
        expect(error.message).toMatch(
          /fleet's shared database postgres:\/\/127\.0\.0\.1:\d+\/\S+ \(fleet "fleet-cut-/,
        );
        expect(error.message).toContain('refused while the fleet');
        const pid = await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} });
        expect(pid.isError).toBe(false);
      } finally {
        await gateway.close();
        place.remove();
      }
    });
  },
);

describe('the fleet: section', () => {
  it('is refused without a PostgreSQL database to share, naming the key to set', async () => {
    const place = scratch();
    try {
      const config = join(place.dir, 'gateway.yaml');
      writeFileSync(config, configText(place.workspace, 'fleet: { approvals: operator }\n'));
      await expect(loadConfig(config, env)).rejects.toThrow(
        /gateway\.yaml:\d+: fleet: the instances need a PostgreSQL database to share: give fleet\.database/,
      );
    } finally {
      place.remove();
    }
  });
});
