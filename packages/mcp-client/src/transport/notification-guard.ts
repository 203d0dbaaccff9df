import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/** Notifications that are never rate-limited here: `list_changed` is coalesced by the refresh scheduler. */
const coalesced = new Set(['notifications/tools/list_changed']);

/**
 * A token bucket: `perSecond` tokens a second, up to `burst` saved. `take()` is true when a token
 * was there; `dropped` counts the refusals since the last {@link TokenBucket.takeDropped}.
 */
export class TokenBucket {
  readonly #perSecond: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;
  #dropped = 0;

  constructor(perSecond: number, burst = perSecond * 2, now: () => number = Date.now) {
    this.#perSecond = perSecond;
    this.#burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes a token if there is one. */
  take(): boolean {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) / 1000) * this.#perSecond);
    this.#last = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return true;
    }
    this.#dropped += 1;
    return false;
  }

  /** How many were refused since the last call, and resets the count. */
  takeDropped(): number {
    const dropped = this.#dropped;
    this.#dropped = 0;
    return dropped;
  }
}

/**
 * Wraps an SDK transport so that notifications from the server (progress, log messages, anything
 * but `tools/list_changed`) reach the client at most at `bucket`'s rate; the rest are dropped
 * before any handler runs. Requests pass untouched; responses are delivered a microtask later, so
 * the progress the server sent before a response is handled before it.
 */
export class NotificationGuard implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly inner: Transport;
  readonly bucket: TokenBucket;

  constructor(inner: Transport, bucket: TokenBucket) {
    this.inner = inner;
    this.bucket = bucket;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const method = (message as { method?: unknown }).method;
      const notification = typeof method === 'string' && !('id' in message);
      if (notification && !coalesced.has(method) && !this.bucket.take()) return;
      if (typeof method !== 'string' && 'id' in message) {
        // A response. The SDK runs notification handlers a microtask late but settles a response at
        // once, dropping that request's progress handler: a progress notification that arrived in
        // the same chunk, just before the response, would be lost. Settling the response a
        // microtask later keeps the server's order.
        queueMicrotask(() => this.onmessage?.(message, extra));
        return;
      }
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
