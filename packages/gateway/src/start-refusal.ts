import { createInterface } from 'node:readline';

/** How long a gateway that could not start waits for its stdio client's `initialize`, at most. */
const defaultWaitMs = 10_000;

/**
 * A stdio gateway that could not start (a config error, a ledger file another gateway holds, an
 * upstream that is not an MCP server) answers its client's `initialize` — and any other request
 * that came first — with a JSON-RPC error carrying the reason and its fix, before it exits, so the
 * client shows that message rather than a bare "Connection closed" (the reason is on stderr too,
 * which most clients keep in a log file nobody opens). Resolves once `initialize` is answered,
 * stdin ends, or `waitMs` passed (a client that never speaks does not keep the process alive).
 */
export function refuseStdioClient(
  reason: string,
  options: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream; waitMs?: number } = {},
): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  return new Promise((resolve) => {
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    const done = () => {
      clearTimeout(timer);
      lines.close();
      resolve();
    };
    const timer = setTimeout(done, options.waitMs ?? defaultWaitMs);
    lines.on('line', (line) => {
      let message: { id?: unknown; method?: unknown };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        return;
      }
      if (message === null || typeof message !== 'object' || message.id === undefined) return;
      const error = { code: -32603, message: `toolgate-gateway could not start: ${reason}` };
      output.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, error })}\n`, () => {
        if (message.method === 'initialize') done();
      });
    });
    lines.once('close', done);
  });
}
