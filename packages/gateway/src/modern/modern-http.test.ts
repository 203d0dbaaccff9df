import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import { configText, scratch, textOf, tokens } from '../testing-fixtures/gateway.js';
import { jsonRpcMessageOf, modernRevision, postModernCall } from '../testing-fixtures/modern-call.js';
import { approvalKey } from './modern-server.js';

const stateKey = 'a-state-key-shared-by-both-instances-0123456789';
const env = {
  DESKTOP_TOKEN: tokens.desktop,
  AGENT_TOKEN: tokens.agent,
  TOOLGATE_GATEWAY_STATE_KEY: stateKey,
};

interface Instance {
  gateway: Gateway;
  endpoint: GatewayHttpEndpoint;
  ledger: string;
}

/** A gateway in this process over HTTP, its upstreams real stdio servers of the 2025-11-25 era. */
async function startInstance(dir: string, workspace: string, name: string): Promise<Instance> {
  const ledger = join(dir, `${name}.ledger.jsonl`);
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, configText(workspace).replace('./gateway.ledger.jsonl', ledger));
  const gateway = await Gateway.start(await loadConfig(path, env), { log: () => undefined });
  const endpoint = await serveGatewayHttp(gateway, { env, port: 0 });
  return { gateway, endpoint, ledger };
}

/** A 2.x client negotiating the era; with `answer`, it declares elicitation and answers each ask so. */
async function modernClient(
  url: string,
  token: string,
  options: { answer?: 'approve' | 'decline'; fetch?: typeof fetch } = {},
): Promise<Client> {
  const capabilities = options.answer === undefined ? {} : { elicitation: {} };
  const client = new Client(
    { name: 'modern', version: '1' },
    { capabilities, versionNegotiation: { mode: 'auto' } },
  );
  if (options.answer !== undefined) {
    const answer = options.answer;
    client.setRequestHandler('elicitation/create', () =>
      answer === 'approve' ? { action: 'accept', content: { approve: true } } : { action: 'decline' },
    );
  }
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    }),
  );
  return client;
}

/** The `policy.decided` records of the ledger for a tool, oldest first. */
interface Decided {
  verdict: { decision: string };
  answer?: Record<string, unknown>;
  /** The parameters of the call decided (from its tool.called record). */
  parameters: unknown;
}

function decisions(ledger: string, tool: string): Decided[] {
  const records = readFileSync(ledger, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { kind: string; payload: Record<string, unknown> });
  const called = new Map(
    records
      .filter((record) => record.kind === 'tool.called' && record.payload.tool === tool)
      .map((record) => [record.payload.callId, record.payload.parameters]),
  );
  return records
    .filter((record) => record.kind === 'policy.decided' && called.has(record.payload.callId))
    .map(
      (record) =>
        ({ ...(record.payload as object), parameters: called.get(record.payload.callId) }) as Decided,
    );
}

/** A raw modern `tools/call` from the client holding `token`, which declares elicitation. */
function toolsCall(url: string, token: string, params: Record<string, unknown>): Promise<Response> {
  return postModernCall(url, params, { token, capabilities: { elicitation: {} } });
}

describe('toolgate-gateway over HTTP speaks MCP 2026-07-28 to modern clients', { timeout: 180_000 }, () => {
  const place = scratch();
  let first: Instance;
  let second: Instance;
  beforeAll(async () => {
    [first, second] = await Promise.all([
      startInstance(place.dir, place.workspace, 'first'),
      startInstance(place.dir, place.workspace, 'second'),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const instance of [first, second]) {
      await instance?.endpoint.close();
      await instance?.gateway.close();
    }
    place.remove();
  });

  it('a modern client reaches a legacy upstream: only its grant listed, privately cached, and called', async () => {
    const client = await modernClient(first.endpoint.url, tokens.agent);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(modernRevision);
      const list = await client.listTools();
      expect(list.tools.map((tool) => tool.name)).toEqual(['ev__get-sum']);
      expect(list).toMatchObject({ cacheScope: 'private' });
      const sum = await client.callTool({ name: 'ev__get-sum', arguments: { a: 2, b: 3 } });
      expect(textOf(sum)).toContain('5');
      expect(first.endpoint.sessions()).toBe(0); // no session kept for a modern client
    } finally {
      await client.close();
    }
  });

  it('asks by multi-round trip: input_required, the answer with the retry, both rounds in the ledger', async () => {
    const client = await modernClient(first.endpoint.url, tokens.desktop, { answer: 'approve' });
    try {
      const echo = await client.callTool({ name: 'ev__echo', arguments: { message: 'asked twice' } });
      expect(echo.isError).not.toBe(true);
      expect(textOf(echo)).toContain('asked twice');
    } finally {
      await client.close();
    }
    const recorded = decisions(first.ledger, 'ev__echo');
    expect(recorded.map((decision) => decision.verdict.decision)).toEqual(['ask', 'ask']);
    expect(recorded[0]!.answer).toMatchObject({ approved: false });
    expect(recorded[1]!.answer).toMatchObject({ from: 'caller', approved: true });
    expect(String(recorded[1]!.answer!.by)).toContain('client "desktop"');
  });

  it('a declined ask is not run, and says the user declined it', async () => {
    const client = await modernClient(first.endpoint.url, tokens.desktop, { answer: 'decline' });
    try {
      const echo = await client.callTool({ name: 'ev__echo', arguments: { message: 'no' } });
      expect(echo.isError).toBe(true);
      expect(textOf(echo)).toContain('PERMISSION_DENIED');
    } finally {
      await client.close();
    }
  });

  it('refuses a forged requestState, a genuine one sent with other arguments, and one sent by another client', async () => {
    const approve = { [approvalKey]: { action: 'accept', content: { approve: true } } };
    const forged = await toolsCall(first.endpoint.url, tokens.desktop, {
      name: 'ev__echo',
      arguments: { message: 'forged' },
      inputResponses: approve,
      requestState: 'v1.eyJwIjp7ImNhbGwiOiJ4In0sImV4cCI6OTk5OTk5OTk5OX0.AAAA',
    });
    const refused = await jsonRpcMessageOf(forged);
    expect(refused.error, JSON.stringify(refused)).toMatchObject({ code: -32602 });

    const firstRound = await jsonRpcMessageOf(
      await toolsCall(first.endpoint.url, tokens.desktop, {
        name: 'ev__echo',
        arguments: { message: 'this one' },
      }),
    );
    const asked = firstRound.result as { resultType: string; requestState: string };
    expect(asked.resultType).toBe('input_required');
    const swapped = await jsonRpcMessageOf(
      await toolsCall(first.endpoint.url, tokens.desktop, {
        name: 'ev__echo',
        arguments: { message: 'another one' },
        inputResponses: approve,
        requestState: asked.requestState,
      }),
    );
    const result = swapped.result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('issued for another call');
    // the genuine state answered for its own call runs it once; sent again, it is refused
    const once = await jsonRpcMessageOf(
      await toolsCall(first.endpoint.url, tokens.desktop, {
        name: 'ev__echo',
        arguments: { message: 'this one' },
        inputResponses: approve,
        requestState: asked.requestState,
      }),
    );
    expect(JSON.stringify(once.result)).toContain('this one');
    const again = await jsonRpcMessageOf(
      await toolsCall(first.endpoint.url, tokens.desktop, {
        name: 'ev__echo',
        arguments: { message: 'this one' },
        inputResponses: approve,
        requestState: asked.requestState,
      }),
    );
    expect(JSON.stringify(again.result)).toContain('was answered already');
    // a state minted for the desktop client is no answer from the agent client (bound to the token)
    const stolen = await jsonRpcMessageOf(
      await toolsCall(first.endpoint.url, tokens.agent, {
        name: 'ev__echo',
        arguments: { message: 'this one' },
        inputResponses: approve,
        requestState: asked.requestState,
      }),
    );
    expect(stolen.error, JSON.stringify(stolen)).toMatchObject({ code: -32602 });
    // neither refused retry reached the upstream: no call of echo with their arguments was approved
    const approved = decisions(first.ledger, 'ev__echo').filter(
      (decision) => decision.answer?.approved === true,
    );
    expect(approved.map((decision) => decision.parameters)).not.toContainEqual({ message: 'another one' });
    expect(approved.map((decision) => decision.parameters)).not.toContainEqual({ message: 'forged' });
  });

  it('two instances behind a round-robin serve one modern client, an ask asked by one answered at the other', async () => {
    const origins = [new URL(first.endpoint.url).origin, new URL(second.endpoint.url).origin];
    const served: string[] = [];
    /** Per tools/call request: where it went, and whether it was a retry carrying a requestState. */
    const calls: { origin: string; retry: boolean }[] = [];
    let next = 0;
    const roundRobin = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const origin = origins[next++ % origins.length]!;
      served.push(origin);
      const body =
        typeof init?.body === 'string'
          ? (JSON.parse(init.body) as { method?: string; params?: { requestState?: string } })
          : {};
      if (body.method === 'tools/call')
        calls.push({ origin, retry: body.params?.requestState !== undefined });
      return fetch(new URL(url.pathname, origin), init);
    }) as typeof fetch;
    const client = await modernClient(first.endpoint.url, tokens.desktop, {
      answer: 'approve',
      fetch: roundRobin,
    });
    try {
      for (const message of ['one', 'two']) {
        const echo = await client.callTool({ name: 'ev__echo', arguments: { message } });
        expect(textOf(echo)).toContain(message);
      }
      expect(new Set(served)).toEqual(new Set(origins));
      // each ask's answer reached the other instance than the one that asked
      const retries = calls.flatMap((call, index) => (call.retry ? [[calls[index - 1]!, call]] : []));
      expect(retries).toHaveLength(2);
      for (const [asked, answered] of retries) expect(answered!.origin).not.toBe(asked!.origin);
    } finally {
      await client.close();
    }
  });
});
