import { ToolgateError } from '@toolgate/core';
import type {
  ChainHead,
  Clock,
  EventDraft,
  FollowOptions,
  LedgerEvent,
  LedgerStore,
  ReadOptions,
  RunSummary,
  TreeHead,
} from '@toolgate/ledger';
import { canonicalJson } from '@toolgate/ledger';
import { LedgerTree, stamper } from '@toolgate/ledger/internal';
import pg, { type Pool, type PoolClient } from 'pg';
import { type AppendOutcome, checkStorableDraft, readHead } from './append-transaction.js';
import { type LedgerLocation, ledgerLocation, unavailable } from './connection.js';
import { waitDurable } from './durable.js';
import { followPostgres } from './follow.js';
import { appendGrouped, type WaitingDraft } from './group-commit.js';
import { queryRuns, readPages } from './read.js';
import { ensureGroupCommit, ensureLedger } from './schema.js';
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

interface Pending extends WaitingDraft {
  resolve: (event: LedgerEvent) => void;
  reject: (error: unknown) => void;
}

/** PostgreSQL's codes for a table and a function that do not exist. */
const missingObjects = ['42P01', '42883'];

/** The payload's canonical JSON; INVALID_EVENT naming the event when it has none. */
function canonicalPayload(draft: EventDraft): string {
  try {
    return canonicalJson(draft.payload ?? {});
  } catch (error) {
    const message = (error as Error).message.replace(/^value /, `the payload of event "${draft.kind}" `);
    throw new ToolgateError('INVALID_EVENT', message, { cause: error });
  }
}

/** How many queued appends one transaction takes at most. */
const maxBatch = 256;

/**
 * A ledger in a PostgreSQL database, for fleets: many writer processes on many machines append to
 * the same ledger and its chain stays one total order, no gaps, no forks. An append takes the lock
 * on the ledger's head row only while the database seals its drafts onto the head (that commit does
 * not wait for the flush), then waits for the flush, which the writers waiting at the same moment
 * share (group commit across processes); a unique (ledger, seq) and (ledger, id) are the second line
 * of defence. Appends that queue up in one process go in together. An append resolves once its
 * records are on the server's disk. A failed append (the server restarting, the network) is an
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
  readonly #pool: Pool;
  readonly #stamp: () => string;
  readonly #closing = new Signal();
  #head: ChainHead;
  #queue: Pending[] = [];
  #draining: Promise<void> | undefined;
  readonly #tree = new LedgerTree((fromSeq) => this.read({ fromSeq }));
  #closed = false;

  private constructor(location: LedgerLocation, pool: Pool, head: ChainHead, clock: Clock | undefined) {
    this.#location = location;
    this.label = location.label;
    this.#pool = pool;
    this.#head = head;
    this.#stamp = stamper(clock);
  }

  /**
   * Connects to the database, creates the tables and the ledger when missing (unless `create` is
   * false) and reads its head. LEDGER_UNAVAILABLE when the server cannot be reached, or the ledger
   * is missing and `create` is false.
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const location = ledgerLocation(url, options.ledger);
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
        return new PostgresStore(location, pool, head, options.clock);
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
    let payload: string;
    try {
      checkStorableDraft(draft);
      payload = canonicalPayload(draft);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ draft, payload, resolve, reject });
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

  /**
   * The Merkle tree head over the records committed so far (by every writer): the first call reads
   * and checks the ledger once, later calls only what was appended since. It returns once the
   * records it covers are on the server's disk.
   */
  async treeHead(): Promise<TreeHead> {
    const head = await this.#tree.head();
    try {
      const client = await this.#pool.connect();
      try {
        await waitDurable(client); // a head is signed: it covers only records a crash cannot take back
      } finally {
        client.release();
      }
    } catch (error) {
      throw unavailable(this.#location, 'be read', error);
    }
    return head;
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
  follow(options: FollowOptions = {}): AsyncGenerator<LedgerEvent> {
    return followPostgres(
      { location: this.#location, closing: this.#closing, closed: () => this.#closed },
      options,
    );
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

  /** One transaction for a batch of queued appends; each append settles with its own outcome. */
  async #commit(batch: Pending[]): Promise<void> {
    let client: PoolClient | undefined;
    let appended: AppendOutcome;
    try {
      client = await this.#pool.connect();
      try {
        appended = await appendGrouped(client, this.#location.ledger, batch, this.#stamp);
      } catch (error) {
        if (!missingObjects.includes((error as { code?: string }).code ?? '')) throw error;
        // A ledger made before group commit, opened without `create`: group commit's table and function.
        client.release(true);
        client = await this.#pool.connect();
        await ensureGroupCommit(client);
        appended = await appendGrouped(client, this.#location.ledger, batch, this.#stamp);
      }
      client.release();
    } catch (error) {
      client?.release(true);
      const failure = ToolgateError.is(error)
        ? error
        : unavailable(
            this.#location,
            'store the append (it may have been stored if the connection broke after the append was sent: ' +
              'append again; an event with an id is stored once however often it is appended)',
            error,
          );
      for (const { reject } of batch) reject(failure);
      return;
    }
    this.#head = appended.head;
    batch.forEach(({ resolve, reject }, index) => {
      const outcome = appended.outcomes[index]!;
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    });
  }
}
