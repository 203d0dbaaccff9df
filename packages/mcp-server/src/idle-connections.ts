import type { Server } from 'node:http';

/** The idle time a response advertises (`Keep-Alive: timeout=5`), Node's default. */
export const advertisedKeepAliveMs = 5_000;

/** How much longer than advertised an idle connection is actually held open. */
export const keepAliveGraceMs = 30_000;

/**
 * Holds each idle keep-alive connection open well past the idle time its responses advertise, so a
 * client never sends a request on a connection the server is closing under it.
 *
 * Why: a client reuses an idle connection until the advertised timeout, less a margin (undici, the
 * fetch of Node, keeps it 5 s − 2 s = 3 s), counted from when it has read the response. A server
 * closing at exactly the advertised time loses that race whenever the client's event loop lags by
 * more than the margin — as on a loaded machine — and the POST it just wrote dies with "other side
 * closed" or ECONNRESET. Such a POST may not be retried (the server might have acted on it), so
 * the server must not close first. This is what nginx's `keepalive_timeout 75s 60s` (hold longer
 * than the header says) and Node 24's `server.keepAliveTimeoutBuffer` do; Node 24's default buffer
 * is 1 s (Node 20 adds a fixed 1 s), this one is {@link keepAliveGraceMs}: a client's request then
 * meets a closed connection only if the server's event loop stalls that long. On Node without the
 * property, the idle timeout Node sets when a response finishes is lengthened to the same.
 */
export function holdIdleConnections(server: Server): void {
  server.keepAliveTimeout = advertisedKeepAliveMs;
  if ('keepAliveTimeoutBuffer' in server) {
    (server as Server & { keepAliveTimeoutBuffer: number }).keepAliveTimeoutBuffer = keepAliveGraceMs;
    return;
  }
  server.on('request', (request, response) => {
    const socket = request.socket;
    // Runs after Node's own 'finish' listener, which set the idle timeout (keepAliveTimeout and,
    // on Node 20, a fixed second more) on a connection kept alive; 0 or unset means none was set.
    response.once('finish', () => {
      const idle = socket.timeout ?? 0;
      if (!socket.destroyed && idle > 0 && idle < advertisedKeepAliveMs + keepAliveGraceMs) {
        socket.setTimeout(advertisedKeepAliveMs + keepAliveGraceMs);
      }
    });
  });
}
