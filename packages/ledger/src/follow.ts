import type { Wakeup } from './chain/chain-state.js';
import type { LedgerEvent } from './chain/event.js';
import { type FollowOptions, matches } from './store.js';

/** What {@link followEvents} needs of a store. */
export interface Followable {
  /** Every stored event from `fromSeq` on, unfiltered, in seq order. */
  readFrom(fromSeq: number): AsyncIterable<LedgerEvent>;
  /** The count of stored events. */
  count(): number;
  closed(): boolean;
  wakeup: Wakeup;
}

/** The stored events that match, then each new one, until the signal aborts or the store closes. */
export async function* followEvents(store: Followable, options: FollowOptions): AsyncGenerator<LedgerEvent> {
  let next = options.fromSeq ?? 0;
  for (;;) {
    for await (const event of store.readFrom(next)) {
      next = event.seq + 1;
      if (options.signal?.aborted) return;
      if (matches(event, options)) yield event;
    }
    if (store.count() > next) continue;
    if (store.closed() || options.signal?.aborted) return;
    await store.wakeup.wait(options.signal);
  }
}
