import { AsyncLocalStorage } from 'node:async_hooks';
import { type Approver, rememberApprovals } from '@toolgate/core';
import type { Gateway } from '../gateway.js';

type Remembering = ReturnType<typeof rememberApprovals>;

/**
 * The `session` answers a running gateway remembers, one store per client session: a legacy HTTP
 * session or stdio connection (forgotten when it closes), or, for a 2026-07-28 client that keeps no
 * session, its client and the identity its token named, for the gateway's lifetime. Each store is
 * core's `rememberApprovals`, so an answer is given again only to the same client calling the same
 * tool on the same canonical subject, and never turns a deny into anything else.
 */
export class SessionAnswers {
  readonly #sessions = new Map<string, Remembering>();
  /** The asking of the call under way, for the store's one approver (calls of a session overlap). */
  readonly #asking = new AsyncLocalStorage<Approver>();

  /**
   * The approver of one call in `session`: an answer remembered for the session, else `ask` (whose
   * answer with `scope: 'session'` is remembered from then on).
   */
  approver(session: string, ask: Approver): Approver {
    let remembering = this.#sessions.get(session);
    if (remembering === undefined) {
      remembering = rememberApprovals((request) => this.#asking.getStore()!(request));
      this.#sessions.set(session, remembering);
    }
    const { approver } = remembering;
    return (request) => this.#asking.run(ask, () => approver(request));
  }

  /** Forgets the answers of `session` (its client left). */
  end(session: string): void {
    this.#sessions.delete(session);
  }

  /** Forgets every remembered answer of every session; returns how many it forgot. */
  forgetAll(): number {
    let forgotten = 0;
    for (const remembering of this.#sessions.values()) forgotten += remembering.revoke();
    return forgotten;
  }
}

/**
 * Forgets every `session` answer the running gateway remembers (`toolgate-gateway remembered forget`
 * sends SIGHUP for it) and records it as `approvals.forgotten` (`scope: session`, how many, why).
 */
export async function forgetSessionAnswers(gateway: Gateway, reason: string): Promise<number> {
  const count = gateway.sessionAnswers.forgetAll();
  await gateway.note('approvals.forgotten', { scope: 'session', count, reason });
  if (count > 0) gateway.log(`forgot ${count} answer(s) remembered for a session: ${reason}`);
  return count;
}
