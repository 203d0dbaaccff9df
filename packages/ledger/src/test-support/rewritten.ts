import { steppingClock } from '../chain/clock.js';
import type { LedgerEvent } from '../chain/event.js';
import { MemoryStore } from '../memory-store.js';
import { readAll } from '../store.js';

/** The ledger whole, re-sealed with one record's payload changed: its chain verifies. */
export async function rewrittenLedger(
  events: readonly LedgerEvent[],
  seq: number,
  change: (payload: Record<string, unknown>) => void,
): Promise<LedgerEvent[]> {
  const store = new MemoryStore({ clock: steppingClock() });
  for (const event of events) {
    const payload = structuredClone(event.payload) as Record<string, unknown>;
    if (event.seq === seq) change(payload);
    await store.append({
      id: event.id,
      runId: event.runId,
      turn: event.turn,
      kind: event.kind,
      actor: event.actor,
      payload: payload as never,
    });
  }
  return readAll(store.read());
}

/** The events as the async iterable `verifyDecisions` reads. */
export async function* eachEvent(events: readonly LedgerEvent[]): AsyncGenerator<LedgerEvent> {
  yield* events;
}
