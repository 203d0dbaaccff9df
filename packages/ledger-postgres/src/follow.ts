import type { FollowOptions, LedgerEvent } from '@toolgate/ledger';
import pg, { type PoolClient } from 'pg';
import { type LedgerLocation, unavailable } from './connection.js';
import { readPages } from './read.js';
import { notifyChannel } from './schema.js';
import { Signal } from './signal.js';

/** How often a follow reads again when no notification came (a dropped LISTEN loses none). */
const followPollMs = 2000;

/** What a follow needs of its store. */
export interface FollowSource {
  readonly location: LedgerLocation;
  /** Raised when the store closes. */
  readonly closing: Signal;
  /** True once the store is closed. */
  readonly closed: () => boolean;
}

/**
 * The stored events that match, then each new one as any writer appends it (LISTEN/NOTIFY, with a
 * read every two seconds besides), until the signal aborts or the store closes. Uses a connection of
 * its own; a lost connection ends the follow with LEDGER_UNAVAILABLE.
 */
export async function* followPostgres(
  source: FollowSource,
  options: FollowOptions,
): AsyncGenerator<LedgerEvent> {
  const { location } = source;
  const client = new pg.Client({ connectionString: location.connectionString });
  const wake = new Signal();
  let lost: Error | undefined;
  client.on('error', (error) => {
    lost = error;
    wake.raise();
  });
  client.on('notification', (message) => {
    if (message.payload === location.ledger) wake.raise();
  });
  const closing = () => wake.raise();
  source.closing.listen(closing);
  try {
    await client.connect();
    await client.query(`LISTEN ${notifyChannel}`);
    let next = options.fromSeq ?? 0;
    for (;;) {
      const generation = wake.generation;
      const closed = source.closed();
      for await (const event of readPages(client as unknown as PoolClient, location.ledger, {
        ...options,
        fromSeq: next,
      })) {
        if (options.signal?.aborted) return;
        next = event.seq + 1;
        yield event;
      }
      if (lost) throw lost;
      if (closed || options.signal?.aborted) return;
      if (wake.generation === generation) await wake.wait(followPollMs, options.signal);
    }
  } catch (error) {
    throw unavailable(location, 'be followed', error);
  } finally {
    source.closing.unlisten(closing);
    await client.end().catch(() => {});
  }
}
