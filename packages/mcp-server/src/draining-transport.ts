import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

type Receive = NonNullable<Transport['onmessage']>;

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } {
  return 'method' in message && 'id' in message && message.id !== undefined;
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !('method' in message) && 'id' in message && ('result' in message || 'error' in message);
}

/**
 * A transport wrapper that knows which requests are still unanswered, so a server can finish them
 * before it exits: {@link DrainingTransport.drain} stops taking requests, waits for the replies in
 * flight, and after a grace period cancels the calls still running and answers each with an error.
 */
export class DrainingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Receive;
  readonly #inner: Transport;
  /** Unanswered requests: id → method. */
  readonly #pending = new Map<RequestId, string>();
  /** Requests the drain already answered: a late reply of the handler is dropped, never sent twice. */
  readonly #cancelled = new Set<RequestId>();
  #draining = false;
  #idle: (() => void) | undefined;

  constructor(inner: Transport) {
    this.#inner = inner;
    inner.onmessage = (message, extra) => this.#receive(message, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  /** How many requests are waiting for their reply. */
  get pending(): number {
    return this.#pending.size;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isResponse(message)) {
      if (this.#cancelled.has(message.id)) return Promise.resolve();
      this.#answered(message.id);
    }
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #receive(message: JSONRPCMessage, extra: Parameters<Receive>[1]): void {
    if (isRequest(message)) {
      if (this.#draining) {
        void this.#inner
          .send({
            jsonrpc: '2.0',
            id: message.id,
            error: {
              code: ErrorCode.ConnectionClosed,
              message: 'toolgate-mcp is shutting down; send it elsewhere',
            },
          })
          .catch(() => undefined);
        return;
      }
      this.#pending.set(message.id, message.method);
    }
    this.onmessage?.(message, extra);
  }

  #answered(id: RequestId): void {
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#idle?.();
  }

  /**
   * Stops taking requests (a new one is answered with an error at once), waits up to `graceMs` for
   * the replies in flight, then cancels the calls still running and answers each with an error: a
   * `tools/call` with an `isError` result of code TIMEOUT, anything else with a JSON-RPC error.
   * Settles once every request has had its reply handed to the transport.
   */
  async drain(graceMs: number): Promise<void> {
    this.#draining = true;
    if (this.#pending.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.#idle = resolve;
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
      this.#idle = undefined;
    }
    const unanswered = [...this.#pending];
    this.#pending.clear();
    for (const [id] of unanswered) this.#cancelled.add(id);
    await Promise.all(
      unanswered.map(([id, method]) => {
        // The SDK drops the handler's own late reply once its request is cancelled.
        this.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'the server is shutting down' },
        });
        const message = `toolgate-mcp is shutting down: this ${method} request was still running after ${graceMs} ms and was cancelled`;
        const reply: JSONRPCMessage =
          method === 'tools/call'
            ? {
                jsonrpc: '2.0',
                id,
                result: {
                  isError: true,
                  content: [{ type: 'text', text: message }],
                  structuredContent: { code: 'TIMEOUT', message },
                },
              }
            : { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message } };
        return this.#inner.send(reply).catch(() => undefined);
      }),
    );
  }
}
