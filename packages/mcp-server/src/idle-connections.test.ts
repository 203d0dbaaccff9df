import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type GuardedListener, listenGuarded, sendJsonRpcError } from './http-listen.js';
import { advertisedKeepAliveMs, keepAliveGraceMs } from './idle-connections.js';

const open: GuardedListener[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(open.splice(0).map((listener) => listener.close()));
});

/** One raw HTTP/1.1 POST on `socket`, resolved with the whole response text (it has a length). */
function exchange(socket: Socket, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    if (socket.readableEnded || socket.destroyed) {
      return reject(new Error('the server had closed the idle connection before the request'));
    }
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const [head, body = ''] = text.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1] ?? Number.NaN);
      if (body.length >= length) done(() => resolve(text));
    };
    const onEnd = () => done(() => reject(new Error(`the server closed the connection; got: ${text}`)));
    const onError = (error: Error) => done(() => reject(error));
    const done = (settle: () => void) => {
      socket.off('data', onData).off('end', onEnd).off('error', onError);
      settle();
    };
    socket.on('data', onData).on('end', onEnd).on('error', onError);
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\n\r\n`);
  });
}

describe('idle keep-alive connections', () => {
  it('advertises 5 s and holds an idle connection open past it, so a late request is still answered', {
    timeout: 60_000,
  }, async () => {
    const listener = await listenGuarded(
      async (_request, response) => sendJsonRpcError(response, 418, -32000, 'answered'),
      { port: 0 },
    );
    open.push(listener);
    const port = Number(new URL(listener.url).port);
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const first = await exchange(socket, port);
    expect(first).toMatch(/^HTTP\/1\.1 418/);
    expect(first).toMatch(/\r\nKeep-Alive: timeout=5\r\n/i);
    // Past what Node alone would hold (the advertised 5 s and its own 1 s): a client whose clock or
    // event loop lagged still finds the connection open.
    await sleep(advertisedKeepAliveMs + 2_500);
    const second = await exchange(socket, port);
    expect(second).toMatch(/^HTTP\/1\.1 418/);
  });

  it('sets the server-side idle timeout to the advertised time plus the grace', async () => {
    let serverSocket: Socket | undefined;
    const listener = await listenGuarded(
      async (request, response) => {
        serverSocket = request.socket;
        sendJsonRpcError(response, 418, -32000, 'answered');
      },
      { port: 0 },
    );
    open.push(listener);
    const port = Number(new URL(listener.url).port);
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    await exchange(socket, port);
    await expect
      .poll(() => serverSocket?.timeout, { timeout: 10_000 })
      .toBe(advertisedKeepAliveMs + keepAliveGraceMs);
  });
});
