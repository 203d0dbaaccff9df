import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DrainingTransport } from './draining-transport.js';

/** A server connected over stdio. */
export interface StdioEndpoint {
  /** Settles when the session has ended: stdin closed, or {@link StdioEndpoint.close} was called. */
  readonly closed: Promise<void>;
  /** Ends the session once the requests in flight are answered (see {@link StdioServeOptions.graceMs}). */
  close(): Promise<void>;
}

/** How {@link serveStdio} ends a session. */
export interface StdioServeOptions {
  /**
   * How long the requests still in flight when stdin ends (or `close()` is called) may run before
   * they are cancelled and answered with an error. Default 10,000 ms.
   */
  graceMs?: number;
}

const flushBoundMs = 5000;

/** Settles once everything written to `stdout` so far has been handed to the OS (bounded). */
export function flushed(stdout: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, flushBoundMs);
    timer.unref();
    try {
      stdout.write('', () => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      resolve();
    }
  });
}

/**
 * Serves MCP over this process's stdin and stdout. Unlike the SDK's transport alone, the session
 * ends when stdin ends, so a client that goes away never leaves the server behind — and it ends
 * only after every request already received has its reply written: calls still running after
 * `graceMs` are cancelled and answered with an error, never dropped.
 *
 * @example
 * const endpoint = await serveStdio(createMcpServer(registry, { tools: ['oracle'] }));
 * process.once('SIGTERM', () => void endpoint.close());
 * await endpoint.closed;
 */
export async function serveStdio(
  server: Server,
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
  options: StdioServeOptions = {},
): Promise<StdioEndpoint> {
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const transport = new DrainingTransport(new StdioServerTransport(stdin as never, stdout as never));
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stdin.off('end', onEnd);
      await transport.drain(options.graceMs ?? 10_000);
      await flushed(stdout);
      await server.close();
      finish();
    })();
    return closing;
  };
  const onEnd = () => void close();
  stdin.on('end', onEnd);
  transport.onclose = finish;
  await server.connect(transport);
  return { closed, close };
}
