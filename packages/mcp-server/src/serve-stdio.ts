import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** A server connected over stdio. */
export interface StdioEndpoint {
  /** Settles when the session has ended: stdin closed, or {@link StdioEndpoint.close} was called. */
  readonly closed: Promise<void>;
  /** Ends the session. */
  close(): Promise<void>;
}

/**
 * Serves MCP over this process's stdin and stdout. Unlike the SDK's transport alone, the session
 * ends when stdin ends, so a client that goes away never leaves the server behind.
 *
 * @example
 * const endpoint = await serveStdio(createMcpServer(registry, { tools: ['oracle'] }));
 * await endpoint.closed;
 */
export async function serveStdio(
  server: Server,
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<StdioEndpoint> {
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const transport = new StdioServerTransport(stdin as never, stdout as never);
  const close = async () => {
    stdin.off('end', onEnd);
    await server.close();
    finish();
  };
  const onEnd = () => void close();
  stdin.on('end', onEnd);
  transport.onclose = finish;
  await server.connect(transport);
  return { closed, close };
}
