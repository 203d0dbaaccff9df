import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from './serve-http.js';
import { sessionEventStore } from './session-events.js';
import {
  agentHeaders,
  agentNoteConfig,
  initializeSession,
  scratch,
  tokens,
} from './testing-fixtures/gateway.js';

const note = (id: number, text: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text }] },
});

/** Every message a replay after `eventId` sends, with its event id. */
async function replayed(store: ReturnType<typeof sessionEventStore>, eventId: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(eventId, {
    send: async (id, message) => {
      sent.push([id, message]);
    },
  });
  return { stream, sent };
}

describe('sessionEventStore', () => {
  it('replays what its stream sent after an event, not the priming event or other streams', async () => {
    const store = sessionEventStore();
    const priming = await store.storeEvent('a', {} as JSONRPCMessage);
    await store.storeEvent('b', note(9, 'other stream'));
    const first = await store.storeEvent('a', note(1, 'one'));
    const second = await store.storeEvent('a', note(2, 'two'));
    expect(await store.getStreamIdForEventId?.(first)).toBe('a');
    const { stream, sent } = await replayed(store, priming);
    expect(stream).toBe('a');
    expect(sent).toEqual([
      [first, note(1, 'one')],
      [second, note(2, 'two')],
    ]);
    expect((await replayed(store, second)).sent).toEqual([]);
  });

  it('keeps at most its bound of text, dropping the oldest, and refuses a resume from a dropped event', async () => {
    const text = 'x'.repeat(100);
    const size = JSON.stringify(note(0, text)).length;
    const store = sessionEventStore(size * 3);
    const ids: string[] = [];
    for (let index = 0; index < 10; index++) ids.push(await store.storeEvent('a', note(0, text)));
    // the last three are kept: the oldest of them replays the two after it
    expect((await replayed(store, ids[7]!)).sent.map(([id]) => id)).toEqual([ids[8], ids[9]]);
    expect(await store.getStreamIdForEventId?.(ids[6]!)).toBeUndefined();
    await expect(replayed(store, ids[6]!)).rejects.toThrow(`event ${ids[6]} is no longer kept`);
  });

  it('keeps one message larger than its bound until the next', async () => {
    const store = sessionEventStore(10);
    const big = await store.storeEvent('a', note(1, 'far more than ten characters'));
    expect(await store.getStreamIdForEventId?.(big)).toBe('a');
    await store.storeEvent('a', note(2, 'next'));
    expect(await store.getStreamIdForEventId?.(big)).toBeUndefined();
  });
});

/** Reads SSE events off a response until `done` says enough, then lets the stream go. */
async function readEvents(
  response: Response,
  done: (events: { id?: string; retry?: string; data: string }[]) => boolean,
) {
  const events: { id?: string; retry?: string; data: string }[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  while (!done(events)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    buffered += value;
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const event: { id?: string; retry?: string; data: string } = { data: '' };
      for (const line of buffered.slice(0, end).split('\n')) {
        const [field, ...rest] = line.split(':');
        const text = rest.join(':').replace(/^ /, '');
        if (field === 'id') event.id = text;
        else if (field === 'retry') event.retry = text;
        else if (field === 'data') event.data += text;
      }
      events.push(event);
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
    }
  }
  await reader.cancel();
  return events;
}

describe('a 2025-11-25 client resumes a broken stream through the gateway', { timeout: 120_000 }, () => {
  const place = scratch();
  let gateway: Gateway;
  let endpoint: GatewayHttpEndpoint;
  beforeAll(async () => {
    const config = join(place.dir, 'gateway.yaml');
    writeFileSync(config, agentNoteConfig());
    const env = { AGENT_TOKEN: tokens.agent };
    gateway = await Gateway.start(await loadConfig(config, env), { log: () => {} });
    endpoint = await serveGatewayHttp(gateway, { port: 0, env });
  }, 60_000);
  afterAll(async () => {
    await endpoint?.close();
    await gateway?.close();
    place.remove();
  });

  it('opens a call stream with an event id and a retry time, and replays the answer after it on GET', async () => {
    const session = await initializeSession(endpoint.url, '2025-11-25', 'resumer');

    // the call's stream: only its first event is read, then the client goes away
    const call = new AbortController();
    const posted = await fetch(endpoint.url, {
      method: 'POST',
      // the SDK primes only the streams of a client of 2025-11-25 or later (older ones cannot take empty data)
      headers: { ...agentHeaders, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'mine__note', arguments: { text: 'kept for later' } },
      }),
      signal: call.signal,
    });
    expect(posted.headers.get('content-type')).toContain('text/event-stream');
    const [priming] = await readEvents(posted, (events) => events.length >= 1);
    call.abort();
    expect(priming).toMatchObject({ retry: '1000', data: '' });
    expect(priming!.id).toBeTruthy();

    const resumed = await fetch(endpoint.url, {
      method: 'GET',
      headers: { ...agentHeaders, 'mcp-session-id': session, 'last-event-id': priming!.id! },
    });
    expect(resumed.status).toBe(200);
    const events = await readEvents(resumed, (seen) => seen.some((event) => event.data.includes('"id":7')));
    const answer = events.find((event) => event.data.includes('"id":7'));
    expect(JSON.parse(answer!.data)).toMatchObject({
      id: 7,
      result: { content: [{ type: 'text', text: 'note: kept for later' }] },
    });

    // an event the session never sent is refused, not answered with an empty stream
    const unknown = await fetch(endpoint.url, {
      method: 'GET',
      headers: { ...agentHeaders, 'mcp-session-id': session, 'last-event-id': 'no-such-stream_0' },
    });
    await unknown.text();
    expect(unknown.status).toBeGreaterThanOrEqual(400);
  });
});
