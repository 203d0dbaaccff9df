import type { RecordedCall } from './recording.js';

/**
 * How far a replay has come through its recording: which recorded calls were made, counted by match
 * key, so the next recorded call of a key is found without a scan.
 */
export class ReplayProgress {
  readonly #calls: readonly RecordedCall[];
  /** The recorded calls of each key, in order. */
  readonly #byKey = new Map<string, RecordedCall[]>();
  /** How many recorded calls of each key were made. */
  readonly #used = new Map<string, number>();
  #made = 0;

  constructor(calls: readonly RecordedCall[]) {
    this.#calls = calls;
    for (const call of calls) {
      const same = this.#byKey.get(call.key);
      if (same) same.push(call);
      else this.#byKey.set(call.key, [call]);
    }
  }

  /** How many recorded calls were made. */
  get made(): number {
    return this.#made;
  }

  /** The recorded call after the ones made, in recorded order: strict mode's next call. */
  get inOrder(): RecordedCall | undefined {
    return this.#calls[this.#made];
  }

  /** How many recorded calls of this key were made. */
  occurrences(key: string): number {
    return this.#used.get(key) ?? 0;
  }

  /** The first recorded call of this key not made yet. */
  upcoming(key: string): RecordedCall | undefined {
    return this.#byKey.get(key)?.[this.occurrences(key)];
  }

  /** Counts a recorded call as made (in strict mode, always {@link inOrder}). */
  take(call: RecordedCall): void {
    this.#used.set(call.key, this.occurrences(call.key) + 1);
    this.#made++;
  }

  /** The first recorded call, in recorded order, that was not made. */
  firstUnmade(): RecordedCall | undefined {
    const seen = new Map<string, number>();
    return this.#calls.find((call) => {
      const occurrence = (seen.get(call.key) ?? 0) + 1;
      seen.set(call.key, occurrence);
      return occurrence > this.occurrences(call.key);
    });
  }
}
