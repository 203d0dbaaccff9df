import pg from 'pg';
import { fleetChannel } from './fleet-tables.js';

/** What NOTIFY said (a wake-up only: the reader looks at the tables), or that wake-ups may have been missed. */
export type FleetNotice =
  | { readonly kind: 'answered'; readonly id: string }
  | { readonly kind: 'reviewed'; readonly tool: string }
  | { readonly kind: 'resync' };

/**
 * One connection LISTENing on the fleet's channel, reconnected (after 0.5 s, doubling to 10 s)
 * whenever it fails; after each reconnection it tells `resync`, since notices sent meanwhile are
 * lost. Notices of other fleets on the same database are dropped.
 */
export class FleetListener {
  readonly #connectionString: string;
  readonly #fleet: string;
  readonly #onNotice: (notice: FleetNotice) => void;
  #client: pg.Client | undefined;
  #closed = false;
  #delayMs = 500;
  #timer: NodeJS.Timeout | undefined;

  private constructor(connectionString: string, fleet: string, onNotice: (notice: FleetNotice) => void) {
    this.#connectionString = connectionString;
    this.#fleet = fleet;
    this.#onNotice = onNotice;
  }

  /** Connects and listens; rejects when the first connection fails (the instance must not start blind). */
  static async start(options: {
    connectionString: string;
    fleet: string;
    onNotice: (notice: FleetNotice) => void;
  }): Promise<FleetListener> {
    const listener = new FleetListener(options.connectionString, options.fleet, options.onNotice);
    await listener.#connect();
    return listener;
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#connectionString,
      connectionTimeoutMillis: 10_000,
    });
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      client.end().catch(() => {});
      this.#retry();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => this.#heard(message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${fleetChannel}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#delayMs = 500;
  }

  #retry(): void {
    if (this.#closed || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#connect().then(
        () => this.#onNotice({ kind: 'resync' }),
        () => {
          this.#delayMs = Math.min(this.#delayMs * 2, 10_000);
          this.#retry();
        },
      );
    }, this.#delayMs);
    this.#timer.unref();
  }

  #heard(payload: string | undefined): void {
    let notice: { fleet?: unknown; kind?: unknown; id?: unknown; tool?: unknown };
    try {
      notice = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    if (notice.fleet !== this.#fleet) return;
    if (notice.kind === 'answered' && typeof notice.id === 'string') {
      this.#onNotice({ kind: 'answered', id: notice.id });
    } else if (notice.kind === 'reviewed' && typeof notice.tool === 'string') {
      this.#onNotice({ kind: 'reviewed', tool: notice.tool });
    }
  }

  /** Stops listening and retrying. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}
