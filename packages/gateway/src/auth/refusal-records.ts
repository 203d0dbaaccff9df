/** What a refused access is recorded with (the payload of `access.refused`). */
export type RefusalPayload = Record<string, string | number>;

/** How many refusals are recorded in full, per window. */
export interface RefusalRecordLimits {
  /** Full records per source (client address) per window. Default 20. */
  readonly perSource?: number;
  /** Full records per window, all sources together. Default 200. */
  readonly total?: number;
  /** The window, in ms. Default 60 000. */
  readonly windowMs?: number;
}

/** How many distinct sources a summary names (the rest are counted together). */
const namedSources = 20;

/**
 * Keeps a flood of refused tokens from growing the ledger without bound: in each window, the
 * first `perSource` refusals of each client address (and `total` of all) are recorded in full
 * (`access.refused`, with `from`); the rest are counted, and one `access.refused.summary` per
 * window says how many were not recorded, and from where (the 20 busiest addresses by name).
 * The summary is written when the window ends (a timer), at the next refusal after it, or at
 * `flush` (the listener's close).
 */
export class RefusalRecords {
  readonly #note: (kind: string, payload: Record<string, string | number | string[]>) => Promise<void>;
  readonly #perSource: number;
  readonly #total: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  #windowStart = Number.NEGATIVE_INFINITY;
  #recorded = 0;
  #bySource = new Map<string, number>();
  #suppressed = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    note: (kind: string, payload: Record<string, string | number | string[]>) => Promise<void>,
    limits: RefusalRecordLimits & { now?: () => number } = {},
  ) {
    this.#note = note;
    this.#perSource = limits.perSource ?? 20;
    this.#total = limits.total ?? 200;
    this.#windowMs = limits.windowMs ?? 60_000;
    this.#now = limits.now ?? Date.now;
  }

  /** Records one refusal from `source` (a client address) in full, or counts it for the window's summary. */
  async refused(source: string, payload: RefusalPayload): Promise<void> {
    const now = this.#now();
    if (now - this.#windowStart >= this.#windowMs) {
      await this.flush();
      this.#windowStart = now;
    }
    const seen = (this.#bySource.get(source) ?? 0) + 1;
    // counting every source of a window is itself bounded: past the limit they count as one
    if (this.#bySource.size < 10 * this.#total || this.#bySource.has(source))
      this.#bySource.set(source, seen);
    if (seen <= this.#perSource && this.#recorded < this.#total) {
      this.#recorded++;
      await this.#note('access.refused', { ...payload, from: source });
      return;
    }
    const key = this.#suppressed.has(source) || this.#suppressed.size < 10 * this.#total ? source : 'others';
    this.#suppressed.set(key, (this.#suppressed.get(key) ?? 0) + 1);
    if (this.#timer === undefined) {
      this.#timer = setTimeout(
        () => void this.flush().catch(() => {}),
        this.#windowStart + this.#windowMs - now,
      );
      this.#timer.unref();
    }
  }

  /** Writes the window's summary when refusals went unrecorded, and starts a new window. */
  async flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const suppressed = this.#suppressed;
    const windowStart = this.#windowStart;
    this.#suppressed = new Map();
    this.#bySource = new Map();
    this.#recorded = 0;
    this.#windowStart = Number.NEGATIVE_INFINITY;
    if (suppressed.size === 0) return;
    const busiest = [...suppressed].sort((left, right) => right[1] - left[1]);
    await this.#note('access.refused.summary', {
      windowStart: new Date(windowStart).toISOString(),
      windowMs: this.#windowMs,
      notRecorded: busiest.reduce((sum, [, count]) => sum + count, 0),
      sources: busiest.slice(0, namedSources).map(([source, count]) => `${source} ${count}`),
      otherSources: Math.max(0, busiest.length - namedSources),
      limits: `${this.#perSource} per address, ${this.#total} in all, per window`,
    });
  }
}
