import { hostname } from 'node:os';
import type { Approver } from '@toolgate/core';
import { messageOf, ToolgateError } from '@toolgate/core';
import type { MCPResolver } from '@toolgate/mcp-client';
import type { FleetSettings } from './fleet-config.js';
import type { FleetNotice } from './fleet-listener.js';
import { type FleetReview, FleetStore, type PendingApproval } from './fleet-store.js';
import { operatorApprover } from './operator-approver.js';

/** What an instance joins its fleet with. */
interface FleetParts {
  readonly resolver: MCPResolver;
  readonly log: (line: string) => void;
  /** The config file, named in the operator's command. */
  readonly source: string;
  /** The run id of the instance's ledger records. */
  readonly runId: string;
}

/**
 * One gateway instance's part in a fleet (`fleet:` in the config): it applies every tool review
 * the fleet shares — at start, at each NOTIFY, and after a lost LISTEN connection — and, with
 * `fleet.approvals: operator`, gives each call an approver that waits for an operator's answer
 * given at any instance.
 */
export class GatewayFleet {
  readonly store: FleetStore;
  /** This instance as operators see it: `host:pid (run ID)`, the run id of its ledger records. */
  readonly instance: string;
  readonly #resolver: MCPResolver;
  readonly #log: (line: string) => void;
  readonly #source: string;
  readonly #waiting = new Map<string, Set<() => void>>();
  readonly #closing = new AbortController();

  private constructor(store: FleetStore, parts: FleetParts) {
    this.store = store;
    this.instance = `${hostname()}:${process.pid} (run ${parts.runId})`;
    this.#resolver = parts.resolver;
    this.#log = parts.log;
    this.#source = parts.source;
  }

  /** Joins the fleet: opens the shared store, listens, and applies the reviews shared so far. */
  static async start(settings: FleetSettings, parts: FleetParts): Promise<GatewayFleet> {
    const store = await FleetStore.open(settings, { listen: true });
    const fleet = new GatewayFleet(store, parts);
    store.onNotice((notice) => fleet.#heard(notice));
    try {
      fleet.#apply(await store.reviews());
    } catch (error) {
      await store.close();
      throw error;
    }
    return fleet;
  }

  /** The approver of `client`'s call with `fleet.approvals: operator`; undefined when the client is asked instead. */
  approverFor(client: string, signal: AbortSignal | undefined): Approver | undefined {
    if (this.store.settings.approvals !== 'operator') return undefined;
    return operatorApprover({
      store: this.store,
      wakeOn: (id, wake) => this.#wakeOn(id, wake),
      client,
      instance: this.instance,
      signal,
      closing: this.#closing.signal,
      log: this.#log,
      source: this.#source,
    });
  }

  /** Answers a pending approval (whichever instance's call waits for it); false when it is not pending. */
  answer(id: string, answer: { approved: boolean; by: string; reason?: string }): Promise<boolean> {
    return this.store.answer(id, answer);
  }

  /** The approvals waiting for an operator across the fleet. */
  pending(): Promise<PendingApproval[]> {
    return this.store.pending();
  }

  /** Leaves the fleet: a call still waiting for an operator is refused now. */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.store.close();
  }

  #wakeOn(id: string, wake: () => void): () => void {
    const wakes = this.#waiting.get(id) ?? new Set<() => void>();
    this.#waiting.set(id, wakes);
    wakes.add(wake);
    return () => {
      wakes.delete(wake);
      if (wakes.size === 0) this.#waiting.delete(id);
    };
  }

  #heard(notice: FleetNotice): void {
    if (notice.kind === 'answered') {
      for (const wake of [...(this.#waiting.get(notice.id) ?? [])]) wake();
      return;
    }
    if (notice.kind === 'resync') {
      for (const wakes of [...this.#waiting.values()]) for (const wake of [...wakes]) wake();
    }
    this.store.reviews(notice.kind === 'reviewed' ? notice.tool : undefined).then(
      (reviews) => this.#apply(reviews),
      (error: unknown) => this.#log(`fleet: could not read the shared reviews: ${messageOf(error)}`),
    );
  }

  /** Approves each reviewed tool that is withheld here with exactly the reviewed fingerprint. */
  #apply(reviews: readonly FleetReview[]): void {
    for (const { tool, fingerprint } of reviews) {
      if (this.#resolver.servedNames().includes(tool)) continue; // served: nothing withheld
      try {
        this.#resolver.approve(tool, fingerprint);
        this.#log(`fleet: applied the shared review of ${tool} (${fingerprint})`);
      } catch (error) {
        // a tool no upstream here lists has nothing to release; a tool that changed again stays withheld
        if (!ToolgateError.is(error) || error.code !== 'UNKNOWN_TOOL') {
          this.#log(`fleet: the shared review of ${tool} does not apply here: ${messageOf(error)}`);
        }
      }
    }
  }
}
