import { PassThrough } from 'node:stream';
import type { Server as LegacyServer } from '@modelcontextprotocol/sdk/server/index.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import { DrainingTransport } from '../draining-transport.js';
import { flushed, type StdioEndpoint, type StdioServeOptions } from '../serve-stdio.js';

/** What {@link serveStdioEras} takes. */
export interface StdioErasOptions extends StdioServeOptions {
  /** Makes the server of a 2025-11-25 connection (an `initialize` opens it): the SDK's 1.x server. */
  legacy: () => LegacyServer;
  /** Makes the server of a 2026-07-28 connection (a `server/discover` or an enveloped request opens it). */
  modern: () => ModernServer | Promise<ModernServer>;
  /** Default: this process's stdin. */
  stdin?: NodeJS.ReadableStream;
  /** Default: this process's stdout. */
  stdout?: NodeJS.WritableStream;
  /** Told what the SDK's stdio entry could not serve (a malformed opening, say). */
  onerror?: (error: Error) => void;
}

/**
 * Serves MCP over stdio to a client of either era: the SDK's 2.x stdio entry (`serveStdio` of
 * `@modelcontextprotocol/server/stdio`, loaded now) reads the connection's opening — an
 * `initialize` pins a 1.x server from `legacy` (exactly the 2025-11-25 server of `serveStdio`), a
 * `server/discover` or a request carrying the revision's `_meta` envelope pins a 2.x server from
 * `modern`, and a client that probes with `server/discover` and then falls back to `initialize` gets
 * the legacy one. As with `serveStdio`, the session ends when stdin ends, and only once every request
 * already received has its reply written (calls still running after `graceMs` are cancelled and
 * answered with an error): the SDK's transport, which would drop them at end of input, reads a pipe
 * that ends only after that drain.
 *
 * @example
 * const endpoint = await serveStdioEras({
 *   legacy: () => createMcpServer(gate, { tools: ['oracle'] }),
 *   modern: () => createModernMcpServer(gate, { tools: ['oracle'] }),
 * });
 * await endpoint.closed;
 */
export async function serveStdioEras(options: StdioErasOptions): Promise<StdioEndpoint> {
  const { serveStdio, StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const input = new PassThrough();
  const onData = (chunk: Buffer | string) => input.write(chunk);
  stdin.on('data', onData);
  const transport = new DrainingTransport(new StdioServerTransport(input, stdout as never) as never);
  const handle = serveStdio(
    // the entry connects the 1.x server to its channel as it would a 2.x one: both are transports' peers
    ({ era }) => (era === 'modern' ? options.modern() : (options.legacy() as never)),
    { transport: transport as never, ...(options.onerror === undefined ? {} : { onerror: options.onerror }) },
  );
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      await transport.drain(options.graceMs ?? 10_000);
      await flushed(stdout);
      await handle.close();
      input.end();
      finish();
    })();
    return closing;
  };
  const onEnd = () => void close();
  stdin.on('end', onEnd);
  return { closed, close };
}
