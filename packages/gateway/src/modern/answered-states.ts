/**
 * The `requestState`s of one gateway process already answered, each kept until it expires (its
 * nonce, and when it stops being valid), at most `limit` at once: a state sent back a second time
 * to this instance is refused. Another instance does not know them — the signature's expiry is
 * the bound there (see the gateway README).
 */
export class AnsweredStates {
  readonly #expiries = new Map<string, number>();
  readonly #limit: number;

  constructor(limit = 100_000) {
    this.#limit = limit;
  }

  /** True the first time `nonce` is claimed (until `expiresAt`, ms since the epoch); false after. */
  claim(nonce: string, expiresAt: number, now = Date.now()): boolean {
    const known = this.#expiries.get(nonce);
    if (known !== undefined && known > now) return false;
    if (this.#expiries.size >= this.#limit) this.#sweep(now);
    // Still full of live states: the oldest claim goes (insertion order); it expires soonest.
    if (this.#expiries.size >= this.#limit) {
      const oldest = this.#expiries.keys().next().value;
      if (oldest !== undefined) this.#expiries.delete(oldest);
    }
    this.#expiries.set(nonce, expiresAt);
    return true;
  }

  #sweep(now: number): void {
    for (const [nonce, expiresAt] of this.#expiries) if (expiresAt <= now) this.#expiries.delete(nonce);
  }
}
