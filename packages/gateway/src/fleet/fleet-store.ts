import { ToolgateError } from '@toolgate/core';
import pg from 'pg';
import type { FleetSettings } from './fleet-config.js';
import { FleetListener, type FleetNotice } from './fleet-listener.js';
import { approvalsTable, ensureFleetTables, fleetChannel, reviewsTable } from './fleet-tables.js';

/** An `ask` waiting for an operator, as every instance of the fleet sees it. */
export interface PendingApproval {
  readonly id: string;
  readonly client: string;
  readonly tool: string;
  readonly parameters: unknown;
  /** Why policy asked. */
  readonly reason: string;
  /** The instance whose call waits. */
  readonly instance: string;
  readonly askedAt: Date;
  readonly expiresAt: Date;
}

/** How an approval ended; undefined while it is pending. */
export type ApprovalOutcome =
  | { readonly status: 'approved' | 'denied'; readonly by: string; readonly reason: string | null }
  | { readonly status: 'expired' | 'cancelled' };

/** An operator's review of a changed tool, shared by the fleet. */
export interface FleetReview {
  readonly tool: string;
  readonly fingerprint: string;
  /** The reviewed definition (as the lock file holds it), when the ledger reported it. */
  readonly review: unknown;
}

/**
 * The state several gateway instances share in one PostgreSQL database: pending approvals and
 * tool reviews, in tables that are the truth, with NOTIFY on `toolgate_fleet` only to wake the
 * instances (a lost notice delays, never decides). Every failure to reach the database is a
 * LEDGER_UNAVAILABLE error naming the fleet (never its password).
 */
export class FleetStore {
  readonly settings: FleetSettings;
  readonly #pool: pg.Pool;
  readonly #listeners = new Set<(notice: FleetNotice) => void>();
  #listener: FleetListener | undefined;

  private constructor(settings: FleetSettings, pool: pg.Pool) {
    this.settings = settings;
    this.#pool = pool;
  }

  /**
   * Connects, creates the tables when missing and, with `listen` (an instance; not the CLI),
   * LISTENs for the fleet's notices. Rejects when the database cannot be reached.
   */
  static async open(settings: FleetSettings, options: { listen?: boolean } = {}): Promise<FleetStore> {
    const pool = new pg.Pool({
      connectionString: settings.connectionString,
      max: 4,
      connectionTimeoutMillis: 10_000,
    });
    pool.on('error', () => {}); // an idle connection's loss: the next query says so
    const store = new FleetStore(settings, pool);
    try {
      const client = await pool.connect();
      try {
        await ensureFleetTables(client);
      } finally {
        client.release();
      }
      if (options.listen === true) {
        store.#listener = await FleetListener.start({
          connectionString: settings.connectionString,
          fleet: settings.name,
          onNotice: (notice) => {
            for (const listener of store.#listeners) listener(notice);
          },
        });
      }
    } catch (error) {
      await store.close();
      throw store.#unavailable('be opened', error);
    }
    return store;
  }

  /** Calls `listener` at each notice of this fleet (and `resync` after a lost LISTEN connection); returns the unsubscribe. */
  onNotice(listener: (notice: FleetNotice) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Puts an `ask` up for an operator. */
  async ask(approval: Omit<PendingApproval, 'askedAt'>): Promise<void> {
    await this.#query(
      'put the approval up',
      `INSERT INTO ${approvalsTable} (fleet, id, client, tool, parameters, reason, instance, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        this.settings.name,
        approval.id,
        approval.client,
        approval.tool,
        JSON.stringify(approval.parameters ?? null),
        approval.reason,
        approval.instance,
        approval.expiresAt,
      ],
    );
  }

  /** The outcome of approval `id`, or undefined while it is pending. */
  async outcome(id: string): Promise<ApprovalOutcome | undefined> {
    const { rows } = await this.#query<{
      status: string;
      answered_by: string | null;
      answer_reason: string | null;
    }>(
      'read the approval',
      `SELECT status, answered_by, answer_reason FROM ${approvalsTable} WHERE fleet = $1 AND id = $2`,
      [this.settings.name, id],
    );
    const row = rows[0];
    if (row === undefined) return { status: 'cancelled' };
    if (row.status === 'pending') return undefined;
    if (row.status === 'approved' || row.status === 'denied') {
      return { status: row.status, by: row.answered_by ?? 'an operator', reason: row.answer_reason };
    }
    return { status: row.status === 'expired' ? 'expired' : 'cancelled' };
  }

  /**
   * Answers a pending approval, from any instance or the CLI, and wakes the fleet. True when it
   * was pending and not yet expired; false when it is unknown, already answered, expired or cancelled.
   */
  async answer(id: string, answer: { approved: boolean; by: string; reason?: string }): Promise<boolean> {
    const { rowCount } = await this.#query(
      'answer the approval',
      `WITH answered AS (
         UPDATE ${approvalsTable}
            SET status = $3, answered_by = $4, answer_reason = $5, answered_at = now()
          WHERE fleet = $1 AND id = $2 AND status = 'pending' AND expires_at > now()
          RETURNING id)
       SELECT pg_notify($6, $7) FROM answered`,
      [
        this.settings.name,
        id,
        answer.approved ? 'approved' : 'denied',
        answer.by,
        answer.reason ?? null,
        fleetChannel,
        JSON.stringify({ fleet: this.settings.name, kind: 'answered', id }),
      ],
    );
    return rowCount === 1;
  }

  /** Ends a pending approval without an answer (its call timed out or was cancelled). */
  async end(id: string, status: 'expired' | 'cancelled'): Promise<void> {
    await this.#query(
      'end the approval',
      `UPDATE ${approvalsTable} SET status = $3, answered_at = now()
        WHERE fleet = $1 AND id = $2 AND status = 'pending'`,
      [this.settings.name, id, status],
    );
  }

  /** The approvals waiting for an operator, oldest first. */
  async pending(): Promise<PendingApproval[]> {
    const { rows } = await this.#query<{
      id: string;
      client: string;
      tool: string;
      parameters: unknown;
      reason: string;
      instance: string;
      asked_at: Date;
      expires_at: Date;
    }>(
      'list the pending approvals',
      `SELECT id, client, tool, parameters, reason, instance, asked_at, expires_at FROM ${approvalsTable}
        WHERE fleet = $1 AND status = 'pending' AND expires_at > now() ORDER BY asked_at, id`,
      [this.settings.name],
    );
    return rows.map((row) => ({
      id: row.id,
      client: row.client,
      tool: row.tool,
      parameters: row.parameters,
      reason: row.reason,
      instance: row.instance,
      askedAt: row.asked_at,
      expiresAt: row.expires_at,
    }));
  }

  /** Shares an operator's review of a changed tool with every instance (the last approval of a tool wins). */
  async publishReview(review: FleetReview): Promise<void> {
    await this.#query(
      'share the review',
      `WITH reviewed AS (
         INSERT INTO ${reviewsTable} (fleet, tool, fingerprint, review) VALUES ($1, $2, $3, $4)
         ON CONFLICT (fleet, tool) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, review = EXCLUDED.review, approved_at = now()
         RETURNING tool)
       SELECT pg_notify($5, $6) FROM reviewed`,
      [
        this.settings.name,
        review.tool,
        review.fingerprint,
        review.review === undefined ? null : JSON.stringify(review.review),
        fleetChannel,
        JSON.stringify({ fleet: this.settings.name, kind: 'reviewed', tool: review.tool }),
      ],
    );
  }

  /** The fleet's reviews; with `tool`, that tool's alone. */
  async reviews(tool?: string): Promise<FleetReview[]> {
    const { rows } = await this.#query<{ tool: string; fingerprint: string; review: unknown }>(
      'read the reviews',
      `SELECT tool, fingerprint, review FROM ${reviewsTable} WHERE fleet = $1 AND ($2::text IS NULL OR tool = $2)
        ORDER BY tool`,
      [this.settings.name, tool ?? null],
    );
    return rows;
  }

  /** Stops listening and closes the connections. */
  async close(): Promise<void> {
    await this.#listener?.close();
    this.#listener = undefined;
    await this.#pool.end().catch(() => {});
  }

  async #query<Row extends pg.QueryResultRow>(
    doing: string,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<Row>> {
    try {
      return await this.#pool.query<Row>(text, values);
    } catch (error) {
      throw this.#unavailable(doing, error);
    }
  }

  #unavailable(doing: string, error: unknown): ToolgateError {
    if (ToolgateError.is(error)) return error;
    const cause = error as { message?: string; code?: string };
    const code = typeof cause.code === 'string' ? ` [${cause.code}]` : '';
    return new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `the fleet's shared database ${this.settings.label} could not ${doing}: ${cause.message ?? String(error)}${code}`,
      { cause: error },
    );
  }
}
