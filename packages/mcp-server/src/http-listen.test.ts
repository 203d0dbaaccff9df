import { afterEach, describe, expect, it } from 'vitest';
import { type GuardedListener, listenGuarded, sendJsonRpcError } from './http-listen.js';
import { progressNotifier } from './progress-notifier.js';

const open: GuardedListener[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((listener) => listener.close()));
});

async function listen(
  handle: Parameters<typeof listenGuarded>[0],
  options: Parameters<typeof listenGuarded>[1] = {},
): Promise<GuardedListener> {
  const listener = await listenGuarded(handle, options);
  open.push(listener);
  return listener;
}

/** POSTs to the listener with `headers` (fetch sets Host to the bound address). */
const post = (listener: GuardedListener, headers: Record<string, string> = {}) =>
  fetch(listener.url, { method: 'POST', headers });

const reached = async (_request: unknown, response: Parameters<typeof sendJsonRpcError>[0]) =>
  sendJsonRpcError(response, 418, -32000, 'handler reached');

describe('listenGuarded', () => {
  it('lets a request with the bound Host and the right token through to the handler', async () => {
    const listener = await listen(reached, { token: 'a-long-enough-secret-token' });
    const response = await post(listener, { authorization: 'Bearer a-long-enough-secret-token' });
    expect(response.status).toBe(418);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'handler reached' },
      id: null,
    });
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('refuses a wrong token with 401 and WWW-Authenticate before the handler runs', async () => {
    const listener = await listen(reached, { token: 'a-long-enough-secret-token' });
    const response = await post(listener, { authorization: 'Bearer not-the-token-at-all-no' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses a foreign Origin with 403 before the handler runs', async () => {
    const listener = await listen(reached);
    const response = await post(listener, { origin: 'http://evil.example' });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      'evil.example',
    );
  });

  it('answers a handler that throws with a JSON-RPC 500 instead of crashing', async () => {
    const listener = await listen(async () => {
      throw new Error('boom');
    });
    const response = await post(listener);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: { code: -32603, message: 'internal error: Error: boom' },
    });
  });
});

describe('progressNotifier', () => {
  it('sends each report under the token, omitting absent fields, and swallows a failed send', async () => {
    const sent: unknown[] = [];
    const notify = progressNotifier('t-1', async (notification) => {
      sent.push(notification);
      throw new Error('client went away');
    });
    notify({ callId: 'c', tool: 'x', progress: 1 });
    notify({ callId: 'c', tool: 'x', progress: 2, total: 4, message: 'half' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([
      { method: 'notifications/progress', params: { progressToken: 't-1', progress: 1 } },
      {
        method: 'notifications/progress',
        params: { progressToken: 't-1', progress: 2, total: 4, message: 'half' },
      },
    ]);
  });
});
