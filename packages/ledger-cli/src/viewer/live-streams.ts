import type { ServerResponse } from 'node:http';
import type { LedgerIndex } from './ledger-index.js';

/** What {@link LiveStreams} takes. */
export interface LiveStreamsOptions {
  /** The most pages that may follow the ledger at once; one more gets a 503. Default 32. */
  maxStreams?: number;
  /** The least time between two messages to one page, in ms. Default 100. */
  intervalMs?: number;
}

/**
 * The `/events` streams of a viewer: server-sent events telling each open page the index's state
 * (its verification, count and head), never the records themselves, which a page fetches a
 * window at a time from `/rows`. A page that reads slowly is sent the latest state once it has
 * taken the last message (the socket drained), never a queue of them: a stream holds at most one
 * message, however long the ledger and however many pages are open. The number of streams is
 * capped.
 */
export class LiveStreams {
  readonly #index: LedgerIndex;
  readonly #max: number;
  readonly #intervalMs: number;
  readonly #open = new Set<ServerResponse>();

  constructor(index: LedgerIndex, options: LiveStreamsOptions = {}) {
    this.#index = index;
    this.#max = options.maxStreams ?? 32;
    this.#intervalMs = options.intervalMs ?? 100;
  }

  /** How many streams are open. */
  get size(): number {
    return this.#open.size;
  }

  /** Answers one `/events` request: a stream, or 503 past the cap. */
  async serve(response: ServerResponse): Promise<void> {
    if (this.#open.size >= this.#max) {
      response.writeHead(503, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Retry-After': '10',
        'X-Content-Type-Options': 'nosniff',
      });
      response.end(
        `too many pages are following this ledger (${this.#max} at most); close one and reload, or start another toolgate-ledger serve\n`,
      );
      return;
    }
    this.#open.add(response);
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    await this.#index.opened();
    let waiting = false;
    let dirty = true;
    let timer: NodeJS.Timeout | undefined;
    const send = () => {
      timer = undefined;
      if (waiting || !dirty || response.destroyed) return;
      dirty = false;
      const ok = response.write(`event: status\ndata: ${JSON.stringify(this.#index.state())}\n\n`);
      // back-pressure: nothing more is written until the page has taken this
      if (!ok) waiting = true;
    };
    const changed = () => {
      dirty = true;
      timer ??= setTimeout(send, this.#intervalMs);
    };
    response.on('drain', () => {
      waiting = false;
      changed();
    });
    const unsubscribe = this.#index.subscribe(changed);
    response.on('close', () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
      this.#open.delete(response);
    });
    send();
  }

  /** Ends every stream. */
  close(): void {
    for (const response of this.#open) response.end();
    this.#open.clear();
  }
}
