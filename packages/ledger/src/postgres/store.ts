import { ToolgateError } from '@toolgate/core';
import type { Client, Pool, PoolClient } from 'pg';
import { type ChainHead, type SealedEvent, sealEvent } from '../chain.js';
import type { Clock } from '../chain-state.js';
import { checkDraft, type EventDraft, type LedgerEvent } from '../event.js';
import type { RunSummary } from '../runs.js';
import type { FollowOptions, LedgerStore, ReadOptions } from '../store.js';
import { type LedgerLocation, ledgerLocation, loadPg, unavailable } from './connection.js';
import { queryRuns, readPages } from './read.js';
import { ensureLedger, eventsTable, headsTable, notifyChannel } from './schema.js';
import { Signal } from './signal.js';

/** What {@link PostgresStore.open} takes. */
export interface PostgresStoreOptions {
  /** The ledger's name in the database. Default: the URL's `ledger` parameter, else `default`. */
  ledger?: string;
  /** Stamps `at`. Default: the system clock. */
  clock?: Clock;
  /** Create the tables and the ledger when missing. Default true; false refuses a missing ledger. */
  create?: boolean;
  /** Connections kept for appends and reads. Default 4. */
  poolSize?: number;
}

interface Pending {
  draft: EventDraft;
  resolve: (event: LedgerEvent) => void;
  reject: (error: unknown) => void;
}

/** How many queued appends one transaction takes at most. */
const maxBatch = 256;
/** How often a follow reads again when no notification came (a dropped LISTEN loses none). */
const followPollMs = 2000;

/**
 * A ledger in a PostgreSQL database, for fleets: many writer processes on many machines append to
 * the same ledger and its chain stays one total order, no gaps, no forks. Each append runs in a
 * transaction that locks the ledger's head row, seals the next records onto it and inserts them;
 * a unique (ledger, seq) and (ledger, id) are the second line of defence. Appends that queue up in
 * one process share a transaction. A failed append (the server restarting, the network) is an
 * error naming the ledger; the next append connects again.
 *
 * `head()` is the head this store last saw (after its own appends): other writers move it too.
 *
 * @example
 * const store = await PostgresStore.open('postgres://toolgate@db.internal/agents?ledger=fleet');
 * await store.append({ runId: 'run-7', kind: 'run.started', actor: 'system' });
 * await store.close();
 */
export class PostgresStore implements LedgerStore {
  /** Where the ledger lives, as messages name it (no password). */
  readonly label: string;
  readonly #location: LedgerLocation;
  readonly #pg: Awaited<ReturnType<typeof loadPg>>;
  readonly #pool: Pool;
  readonly #clock: Clock;
  readonly #closing = new Signal();
  readonly #followers = new Set<Client>();
  #head: ChainHead;
  #queue: Pending[] = [];
  #draining: Promise<void> | undefined;
  #closed = false;

  private constructor(
    location: LedgerLocation,
    pg: Awaited<ReturnType<typeof loadPg>>,
    pool: Pool,
    head: ChainHead,
    clock: Clock,
  ) {
    this.#location = location;
    this.label = location.label;
    this.#pg = pg;
    this.#pool = pool;
    this.#head = head;
    this.#clock = clock;
  }

  /**
   * Connects to the database, creates the tables and the ledger when missing (unless `create` is
   * false) and reads its head. LEDGER_UNAVAILABLE when `pg` is not installed, the server cannot be
   * reached, or the ledger is missing and `create` is false.
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const location = ledgerLocation(url, options.ledger);
    const pg = await loadPg();
    const pool = new pg.Pool({ connectionString: location.connectionString, max: options.poolSize ?? 4 });
    // A connection the server drops (a restart) reports an error event, idle or between the queries
    // of an append; the append's query fails with it too, and the next append connects again.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    try {
      const client = await pool.connect();
      try {
        if (!(await ensureLedger(client, location.ledger, options.create ?? true))) {
          throw new ToolgateError(
            'LEDGER_UNAVAILABLE',
            `there is no ledger ${location.label}: check the URL and the ledger name (?ledger=NAME)`,
          );
        }
        const head = await readHead(client, location.ledger);
        client.release();
        return new PostgresStore(location, pg, pool, head, options.clock ?? (() => new Date()));
      } catch (error) {
        client.release(true);
        throw error;
      }
    } catch (error) {
      await pool.end().catch(() => {});
      throw unavailable(location, 'be opened', error);
    }
  }

  head(): ChainHead {
    return this.#head;
  }

  append(draft: EventDraft): Promise<LedgerEvent> {
    if (this.#closed) {
      return Promise.reject(
        new ToolgateError(
          'LEDGER_UNAVAILABLE',
          `the ledger ${this.label} is closed; open it again to append`,
        ),
      );
    }
    try {
      checkDraft(draft);
      for (const [field, value] of [
        ['id', draft.id],
        ['runId', draft.runId],
      ] as const) {
        if (value?.includes('\u0000')) {
          throw new ToolgateError(
            'INVALID_EVENT',
            `cannot append the event of kind ${JSON.stringify(draft.kind)}: ${field} holds a NUL character, which PostgreSQL text cannot store`,
          );
        }
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ draft, resolve, reject });
      this.#draining ??= this.#drain();
    });
  }

  async *read(options: ReadOptions = {}): AsyncGenerator<LedgerEvent> {
    try {
      yield* readPages(this.#pool, this.#location.ledger, options);
    } catch (error) {
      throw unavailable(this.#location, 'be read', error);
    }
  }

  async runs(): Promise<RunSummary[]> {
    try {
      return await queryRuns(this.#pool, this.#location.ledger);
    } catch (error) {
      throw unavailable(this.#location, 'list its runs', error);
    }
  }

  /**
   * The stored events that match, then each new one as any writer appends it (LISTEN/NOTIFY, with
   * a read every two seconds besides), until the signal aborts or the store closes. Uses a
   * connection of its own; a lost connection ends the follow with LEDGER_UNAVAILABLE.
   */
  async *follow(options: FollowOptions = {}): AsyncGenerator<LedgerEvent> {
    const client = new this.#pg.Client({ connectionString: this.#location.connectionString });
    const wake = new Signal();
    let lost: Error | undefined;
    client.on('error', (error) => {
      lost = error;
      wake.raise();
    });
    client.on('notification', (message) => {
      if (message.payload === this.#location.ledger) wake.raise();
    });
    const closing = () => wake.raise();
    this.#closing.listen(closing);
    this.#followers.add(client);
    try {
      await client.connect();
      await client.query(`LISTEN ${notifyChannel}`);
      let next = options.fromSeq ?? 0;
      for (;;) {
        const generation = wake.generation;
        const closed = this.#closed;
        for await (const event of readPages(client as unknown as PoolClient, this.#location.ledger, {
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
      throw unavailable(this.#location, 'be followed', error);
    } finally {
      this.#closing.unlisten(closing);
      this.#followers.delete(client);
      await client.end().catch(() => {});
    }
  }

  async flush(): Promise<void> {
    await this.#draining;
  }

  /** Waits for queued appends, ends follows (after the records stored so far) and disconnects. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#draining;
    this.#closing.raise();
    await this.#pool.end();
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, maxBatch);
      await this.#commit(batch);
    }
    this.#draining = undefined;
  }

  /** One transaction: lock the head, seal each draft onto it, insert, move the head, notify. */
  async #commit(batch: Pending[]): Promise<void> {
    let client: PoolClient | undefined;
    const outcomes: (LedgerEvent | Error)[] = [];
    let head: ChainHead | undefined;
    try {
      client = await this.#pool.connect();
      const opened = await lockHead(client, this.#location.ledger, batch);
      head = opened.head;
      const known = opened.known;
      const sealed: SealedEvent[] = [];
      for (const { draft } of batch) {
        const stored = draft.id === undefined ? undefined : known.get(draft.id);
        if (stored) {
          outcomes.push(stored);
          continue;
        }
        try {
          const next = sealEvent(draft, head, this.#stamp());
          sealed.push(next);
          known.set(next.event.id, next.event);
          head = { seq: next.event.seq + 1, hash: next.event.hash };
          outcomes.push(next.event);
        } catch (error) {
          outcomes.push(error as Error);
        }
      }
      await client.query(
        sealed.length > 0 ? insertAndCommit(client, this.#location.ledger, sealed, head) : 'COMMIT',
      );
      client.release();
    } catch (error) {
      client?.release(true);
      const failure = ToolgateError.is(error)
        ? error
        : unavailable(
            this.#location,
            'store the append (nothing was stored unless the connection broke during the commit: ' +
              'append again; an event with an id is stored once however often it is appended)',
            error,
          );
      for (const { reject } of batch) reject(failure);
      return;
    }
    if (head) this.#head = head;
    batch.forEach(({ resolve, reject }, index) => {
      const outcome = outcomes[index]!;
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    });
  }

  #stamp(): string {
    const at = this.#clock();
    if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
      throw new ToolgateError('INVALID_DEFINITION', 'the ledger clock did not return a valid Date');
    }
    return at.toISOString();
  }
}

async function readHead(client: PoolClient, ledger: string): Promise<ChainHead> {
  const { rows } = await client.query<{ next_seq: string; hash: string }>(
    `SELECT next_seq, hash FROM ${headsTable} WHERE ledger = $1`,
    [ledger],
  );
  return headOf(rows[0], ledger);
}

function headOf(row: { next_seq: string; hash: string } | undefined, ledger: string): ChainHead {
  if (!row) {
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `the head row of the ledger "${ledger}" is missing: it was deleted`,
    );
  }
  return { seq: Number(row.next_seq), hash: row.hash };
}

/**
 * The first of the two round trips of an append transaction: BEGIN, lock the head row, and read the
 * records already stored under the batch's ids. One text of statements, its values quoted by `pg`.
 */
async function lockHead(
  client: PoolClient,
  ledger: string,
  batch: Pending[],
): Promise<{ head: ChainHead; known: Map<string, LedgerEvent> }> {
  const quote = (value: string) => client.escapeLiteral(value);
  const ids = batch.flatMap(({ draft }) => (draft.id === undefined ? [] : [quote(draft.id)]));
  const statements = [
    'BEGIN',
    `SELECT next_seq, hash FROM ${headsTable} WHERE ledger = ${quote(ledger)} FOR UPDATE`,
    ...(ids.length > 0
      ? [`SELECT id, line FROM ${eventsTable} WHERE ledger = ${quote(ledger)} AND id IN (${ids.join(', ')})`]
      : []),
  ];
  const results = (await client.query(statements.join('; '))) as unknown as {
    rows: Record<string, string>[];
  }[];
  const head = headOf(results[1]?.rows[0] as { next_seq: string; hash: string } | undefined, ledger);
  const known = new Map<string, LedgerEvent>();
  for (const row of results[2]?.rows ?? []) known.set(row.id!, JSON.parse(row.line!) as LedgerEvent);
  return { head, known };
}

/**
 * The second round trip: move the head, insert the records, notify followers, commit. The head moves
 * first: a transaction cut short anywhere leaves neither.
 */
function insertAndCommit(client: PoolClient, ledger: string, sealed: SealedEvent[], head: ChainHead): string {
  const quote = (value: string) => client.escapeLiteral(value);
  const name = quote(ledger);
  const rows = sealed.map(
    ({ event, line }) =>
      `(${name}, ${event.seq}, ${quote(event.id)}, ${quote(event.runId)}, ${quote(event.kind)}, ${quote(event.at)}, ${quote(line)})`,
  );
  return [
    `UPDATE ${headsTable} SET next_seq = ${head.seq}, hash = ${quote(head.hash)} WHERE ledger = ${name}`,
    `INSERT INTO ${eventsTable} (ledger, seq, id, run_id, kind, at, line) VALUES ${rows.join(', ')}`,
    `SELECT pg_notify(${quote(notifyChannel)}, ${name})`,
    'COMMIT',
  ].join('; ');
}
