import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { readAll } from '@toolgate/ledger';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliPath, connectHttp, scratch, sdkClient, textOf, tokens } from '../testing-fixtures/gateway.js';
import {
  env,
  firstRound,
  type Instance,
  modernRevision,
  rawCall,
  startInstance,
  startUpstream,
} from '../testing-fixtures/held-calls.js';

describe("a 2026-07-28 client answers an upstream's requests through the gateway", {
  timeout: 180_000,
}, () => {
  const place = scratch();
  let upstream: { url: string; child: ChildProcess };
  let main: Instance;
  let hasty: Instance;
  const clients: Array<{ close(): Promise<void> }> = [];
  const events = async (instance: Instance) =>
    (await readAll(instance.gateway.store.read())).map((event) => ({
      kind: event.kind,
      payload: event.payload as Record<string, unknown>,
    }));

  beforeAll(async () => {
    upstream = await startUpstream();
    main = await startInstance(place.dir, 'main', upstream.url);
    // held calls that wait 300 ms for their answer
    hasty = await startInstance(place.dir, 'hasty', upstream.url, 'held_call_ms: 300\n');
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const instance of [main, hasty]) {
      await instance?.endpoint.close();
      await instance?.gateway.close();
    }
    upstream?.child.kill();
    place.remove();
  });

  /**
   * A 2.x client that declares elicitation and answers each one with the next of `answers`; over
   * HTTP to the main instance unless `transport` says otherwise.
   */
  async function modernClient(
    answers: Array<Record<string, string>>,
    transport: () => StdioClientTransport | StreamableHTTPClientTransport = () =>
      new StreamableHTTPClientTransport(new URL(main.endpoint.url), {
        requestInit: { headers: { authorization: `Bearer ${tokens.desktop}` } },
      }),
  ): Promise<{ client: Client; asked: string[] }> {
    const asked: string[] = [];
    const client = new Client(
      { name: 'modern', version: '1' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } },
    );
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: answers.shift() ?? {} };
    });
    await client.connect(transport());
    clients.push(client);
    return { client, asked };
  }

  it('answers an elicitation in one round, and the ledger records the call once with the ask', async () => {
    const { client, asked } = await modernClient([{ name: 'Ada' }]);
    const result = await client.callTool({
      name: 'cf__test_input_required_result_elicitation',
      arguments: {},
    });
    expect(asked).toEqual(['What is your name?']);
    expect(textOf(result)).toBe('Hello, Ada! (accept)');
    const records = await events(main);
    const ofTool = records.filter(
      (event) => event.payload.tool === 'cf__test_input_required_result_elicitation',
    );
    expect(ofTool.map((event) => event.kind)).toEqual(['tool.called', 'policy.decided', 'tool.returned']);
    expect(
      records.filter((event) => event.kind === 'upstream.asked').map((event) => event.payload),
    ).toContainEqual(
      expect.objectContaining({
        client: 'desktop',
        server: 'cf',
        method: 'elicitation/create',
        outcome: 'answered',
        action: 'accept',
      }),
    );
  });

  it('answers two elicitations in two rounds of one call', async () => {
    const { client, asked } = await modernClient([{ name: 'Ada' }, { color: 'blue' }]);
    const result = await client.callTool({
      name: 'cf__test_input_required_result_multi_round',
      arguments: {},
    });
    expect(asked).toEqual(['Step 1: What is your name?', 'Step 2: What is your favorite color?']);
    expect(textOf(result)).toBe('Ada likes blue');
  });

  it('answers two rounds over stdio too: the built gateway command, its stdio client modern', async () => {
    const config = join(place.dir, 'stdio.yaml');
    writeFileSync(
      config,
      `servers:\n  cf: { url: "${upstream.url}", prefix: cf }\nclients:\n  desktop: { tools: ["cf__*"] }\n` +
        'stdio: desktop\npolicy: { default: allow, rules: [] }\nledger: ./stdio.ledger.jsonl\nnew_tools: allow\n',
    );
    const stdio = () =>
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, '--config', config],
        env: { ...process.env, ...env } as Record<string, string>,
        stderr: 'ignore',
      });
    const { client, asked } = await modernClient([{ name: 'Ada' }, { color: 'green' }], stdio);
    expect(client.getNegotiatedProtocolVersion()).toBe(modernRevision);
    const result = await client.callTool({
      name: 'cf__test_input_required_result_multi_round',
      arguments: {},
    });
    expect(asked).toEqual(['Step 1: What is your name?', 'Step 2: What is your favorite color?']);
    expect(textOf(result)).toBe('Ada likes green');
  });

  it('puts requests the upstream sends together in one round, and asks again what a retry left out', async () => {
    const name = 'cf__test_input_required_result_multiple_inputs';
    const first = await rawCall(main.endpoint.url, { name });
    const asked = first.body.result?.inputRequests as Record<string, { method: string }>;
    const methods = Object.values(asked).map((request) => request.method);
    expect(methods.sort()).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
    const keyOf = (method: string) => Object.keys(asked).find((key) => asked[key]!.method === method)!;
    const answers: Record<string, unknown> = {
      [keyOf('elicitation/create')]: { action: 'accept', content: { name: 'Ada' } },
      [keyOf('sampling/createMessage')]: {
        role: 'assistant',
        content: { type: 'text', text: 'Hi' },
        model: 'm',
      },
      [keyOf('roots/list')]: { roots: [{ uri: 'file:///srv', name: 'srv' }] },
    };
    const elicitation = keyOf('elicitation/create');
    const partial = await rawCall(main.endpoint.url, {
      name,
      inputResponses: { [elicitation]: answers[elicitation] },
      requestState: first.body.result?.requestState,
    });
    const again = partial.body.result?.inputRequests as Record<string, { method: string }>;
    expect(
      Object.values(again)
        .map((request) => request.method)
        .sort(),
    ).toEqual(['roots/list', 'sampling/createMessage']);
    const done = await rawCall(main.endpoint.url, {
      name,
      inputResponses: answers,
      requestState: partial.body.result?.requestState,
    });
    expect(textOf(done.body.result)).toBe('name Ada, greeting Hi, 1 root(s)');
  });

  it('refuses a tampered requestState, and never runs the call afresh for it', async () => {
    const { key, requestState } = await firstRound(
      main.endpoint.url,
      'cf__test_input_required_result_request_state',
    );
    const tampered = `${requestState.slice(0, -2)}${requestState.endsWith('A') ? 'B' : 'A'}`;
    const { body } = await rawCall(main.endpoint.url, {
      name: 'cf__test_input_required_result_request_state',
      inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
      requestState: tampered,
    });
    expect(body.result).toBeUndefined();
    expect(body.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
  });

  it('refuses a requestState replayed onto another call, and one sent again after its call ended', async () => {
    const { key, requestState } = await firstRound(
      main.endpoint.url,
      'cf__test_input_required_result_tampered_state',
    );
    const answer = { [key]: { action: 'accept', content: { ok: true } } };
    const other = await rawCall(main.endpoint.url, {
      name: 'cf__test_input_required_result_request_state',
      inputResponses: answer,
      requestState,
    });
    expect(other.body.error?.message).toBe(
      'this requestState belongs to another call; call again without requestState',
    );
    const own = await rawCall(main.endpoint.url, {
      name: 'cf__test_input_required_result_tampered_state',
      inputResponses: answer,
      requestState,
    });
    expect(textOf(own.body.result)).toBe('state-ok: action=accept, ok=true');
    const again = await rawCall(main.endpoint.url, {
      name: 'cf__test_input_required_result_tampered_state',
      inputResponses: answer,
      requestState,
    });
    expect(again.body.error?.message).toMatch(
      /^the call this requestState belongs to is no longer held: it ended and its result was given; call again without requestState$/,
    );
  });

  it('refuses at another instance a requestState of a call this one holds, saying what to do', async () => {
    const { key, requestState } = await firstRound(
      main.endpoint.url,
      'cf__test_input_required_result_elicitation',
    );
    const elsewhere = await rawCall(hasty.endpoint.url, {
      name: 'cf__test_input_required_result_elicitation',
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
      requestState,
    });
    expect(elsewhere.body.error?.message).toMatch(
      /is held by another gateway process .* Send every retry of one call to the instance that answered it/,
    );
    // still held where it is: answered there, it completes
    const home = await rawCall(main.endpoint.url, {
      name: 'cf__test_input_required_result_elicitation',
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
      requestState,
    });
    expect(textOf(home.body.result)).toBe('Hello, Ada! (accept)');
  });

  it('answers -32021 (HTTP 400) when the upstream asks what the client did not declare, and ends the call', async () => {
    const { status, body } = await rawCall(
      main.endpoint.url,
      { name: 'cf__test_missing_capability' },
      { elicitation: {} },
    );
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    expect(String(body.error?.message)).toContain('declare it in _meta');
    await vi.waitFor(async () => {
      const asked = (await events(main)).filter(
        (event) => event.kind === 'upstream.asked' && event.payload.method === 'sampling/createMessage',
      );
      expect(asked.at(-1)?.payload).toMatchObject({
        outcome: 'failed',
        reason: expect.stringContaining('"sampling"'),
      });
    });
  });

  it('cancels a held call past held_call_ms, and tells a late retry so', async () => {
    const { body } = await rawCall(hasty.endpoint.url, {
      name: 'cf__test_input_required_result_elicitation',
    });
    const requestState = body.result?.requestState as string;
    const [key] = Object.keys(body.result?.inputRequests as object);
    await vi.waitFor(
      async () => {
        const returned = (await events(hasty)).filter(
          (event) =>
            event.kind === 'tool.returned' &&
            event.payload.tool === 'cf__test_input_required_result_elicitation',
        );
        expect(returned).toHaveLength(1);
      },
      { timeout: 30_000, interval: 100 },
    );
    const late = await rawCall(hasty.endpoint.url, {
      name: 'cf__test_input_required_result_elicitation',
      inputResponses: { [key!]: { action: 'accept', content: { name: 'Ada' } } },
      requestState,
    });
    expect(late.body.error?.message).toMatch(
      /no longer held: it waited 300 ms for the client's answer \(held_call_ms in .*hasty\.yaml\) and was cancelled/,
    );
  });

  it('still passes the elicitation to a 2025-11-25 client as a request during its call', async () => {
    const client = sdkClient();
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Grace' } }));
    await connectHttp(client, main.endpoint.url, tokens.desktop);
    clients.push(client);
    const result = await client.callTool({
      name: 'cf__test_input_required_result_elicitation',
      arguments: {},
    });
    expect(textOf(result)).toBe('Hello, Grace! (accept)');
  });
});
