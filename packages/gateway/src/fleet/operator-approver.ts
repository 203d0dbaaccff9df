import { randomUUID } from 'node:crypto';
import type { ApprovalRequest, Approver } from '@toolgate/core';
import { messageOf } from '@toolgate/core';
import type { ApproverAnswer } from '@toolgate/core/internal';
import type { ApprovalOutcome, FleetStore } from './fleet-store.js';

/** How often a waiting call reads its approval's row when no notice came (the table is the truth). */
const pollMs = 1000;

/** What an operator approver needs: the shared store, who calls, and where to tell the operator. */
export interface OperatorApproverOptions {
  readonly store: FleetStore;
  /** Wakes the call waiting for approval `id` (a notice, or a resync); returns the unsubscribe. */
  readonly wakeOn: (id: string, wake: () => void) => () => void;
  readonly client: string;
  /** This instance, as operators see it (`host:pid`). */
  readonly instance: string;
  /** The call's own signal: a cancelled call withdraws its approval. */
  readonly signal?: AbortSignal | undefined;
  /** Aborted when the instance closes: a waiting call is refused then (its row expires on its own). */
  readonly closing: AbortSignal;
  /** Tells the operator an approval waits, and the command that answers it. */
  readonly log: (line: string) => void;
  /** The config file, for the command in the log line. */
  readonly source: string;
}

/**
 * An approver that puts the `ask` up in the fleet's shared table and waits — for an operator's
 * answer given at any instance, until `approval_timeout_ms`, or until the call is cancelled.
 * Never fails open: a database that cannot be reached to put the ask up, or that stays
 * unreachable until the time is up, refuses the call naming it.
 */
export function operatorApprover(options: OperatorApproverOptions): Approver {
  return async (request: ApprovalRequest): Promise<ApproverAnswer> => {
    const { store } = options;
    const timeoutMs = store.settings.approvalTimeoutMs;
    const id = randomUUID();
    try {
      await store.ask({
        id,
        client: options.client,
        tool: request.tool,
        parameters: request.parameters,
        reason: request.reason,
        instance: options.instance,
        expiresAt: new Date(Date.now() + timeoutMs),
      });
    } catch (error) {
      return {
        approved: false,
        reason: `${messageOf(error)}; a call that needs an operator's approval is refused while the fleet's database cannot be reached`,
      };
    }
    options.log(
      `approval ${id} waits for an operator: client "${options.client}" calls "${request.tool}" (${request.reason}); ` +
        `answer at any instance: toolgate-gateway answer ${id} --approve (or --deny) --config ${options.source}`,
    );
    return waitForOutcome(options, id, Date.now() + timeoutMs);
  };
}

async function waitForOutcome(
  options: OperatorApproverOptions,
  id: string,
  deadline: number,
): Promise<ApproverAnswer> {
  const { store, signal } = options;
  let failure: unknown;
  for (;;) {
    try {
      const outcome = await store.outcome(id);
      failure = undefined;
      if (outcome !== undefined) return answerOf(outcome, store.settings.approvalTimeoutMs);
    } catch (error) {
      failure = error; // unreachable now: keep waiting, the answer may come when it is back
    }
    if (options.closing.aborted) {
      return { approved: false, reason: `the gateway closed while approval ${id} waited for an operator` };
    }
    if (signal?.aborted === true) {
      await store.end(id, 'cancelled').catch(() => {});
      return { approved: false, reason: 'the call was cancelled while it waited for an operator' };
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      // ended as expired unless an operator answered in the meantime (then that answer holds)
      const ended = await store
        .end(id, 'expired')
        .then(() => store.outcome(id))
        .catch((error: unknown) => {
          failure = error;
          return undefined;
        });
      if (ended !== undefined && ended.status !== 'expired') {
        return answerOf(ended, store.settings.approvalTimeoutMs);
      }
      return {
        approved: false,
        reason:
          failure === undefined
            ? `no operator answered approval ${id} within ${store.settings.approvalTimeoutMs} ms (fleet.approval_timeout_ms)`
            : `${messageOf(failure)}; approval ${id} could not be read, so the call is refused`,
      };
    }
    await sleepUntilWoken(options, id, Math.min(left, pollMs));
  }
}

function sleepUntilWoken(options: OperatorApproverOptions, id: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      options.signal?.removeEventListener('abort', done);
      options.closing.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = options.wakeOn(id, done);
    options.signal?.addEventListener('abort', done, { once: true });
    options.closing.addEventListener('abort', done, { once: true });
  });
}

function answerOf(outcome: ApprovalOutcome, timeoutMs: number): ApproverAnswer {
  if (outcome.status === 'approved' || outcome.status === 'denied') {
    const approved = outcome.status === 'approved';
    return {
      approved,
      by: outcome.by,
      reason: outcome.reason ?? (approved ? 'an operator approved it' : 'an operator denied it'),
    };
  }
  return {
    approved: false,
    reason:
      outcome.status === 'expired'
        ? `no operator answered within ${timeoutMs} ms (fleet.approval_timeout_ms)`
        : 'the approval was withdrawn before an operator answered',
  };
}
