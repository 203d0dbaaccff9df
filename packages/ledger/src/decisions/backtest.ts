import type { JsonObject, Policy, PolicyDocument, PolicyVerdict } from '@toolgate/core';
import type { Decision } from '@toolgate/core/internal';
import type { LedgerEvent } from '../chain/event.js';
import { dependsOnSubject, judgedRequest } from './verify-decisions.js';

/** How a recorded call would fare under another policy: refused where it ran, run where it was refused, or asked where it was not. */
export type BacktestChangeKind = 'allowed → denied' | 'denied → allowed' | 'new ask';

/** One recorded decision that another policy would change. */
export interface BacktestChange {
  readonly kind: BacktestChangeKind;
  /** The seq of the `policy.decided` record. */
  readonly seq: number;
  readonly runId: string;
  readonly callId: string;
  readonly agent: string;
  readonly tool: string;
  /** What was recorded: the verdict and the outcome, e.g. `ask → allow`. */
  readonly was: { readonly verdict: Decision; readonly outcome: 'allow' | 'deny' };
  /** The new policy's verdict (its rule and layer, absent when its default decided). */
  readonly now: PolicyVerdict;
}

/** The changes made by one rule of the new policy (or by its default), with the record seqs. */
export interface BacktestGroup {
  readonly kind: BacktestChangeKind;
  /** The deciding rule's index (within its layer); absent for the default. */
  readonly rule?: number;
  readonly layer?: string;
  readonly seqs: readonly number[];
}

/** A recorded decision the new policy cannot judge again, and why. */
export interface BacktestUnjudged {
  readonly seq: number;
  readonly callId: string;
  readonly tool: string;
  readonly reason: string;
}

/** What {@link backtestDecisions} found: how many decisions it judged, what would change, grouped by rule. */
export interface BacktestResult {
  /** `policy.decided` records judged again. */
  readonly judged: number;
  /** Of them, those the new policy would decide the same way. */
  readonly unchanged: number;
  readonly changes: readonly BacktestChange[];
  /** The changes by kind and deciding rule, in the order each first appears. */
  readonly groups: readonly BacktestGroup[];
  /** Records it could not judge again (no subject recorded where the new policy needs one, no parameters). */
  readonly unjudged: readonly BacktestUnjudged[];
}

/** What {@link backtestDecisions} takes. */
export interface BacktestOptions {
  /** The policy to judge the recorded calls by (a `RulePolicy`, a `layeredPolicy`, …). */
  readonly policy: Policy;
  /**
   * The policy's document, for telling which records it needs a subject for (a `RulePolicy`'s own
   * `document` when omitted and the policy has one). Without either, every record needs one.
   */
  readonly document?: PolicyDocument;
}

/**
 * "Would this policy have fired?": judges every recorded `policy.decided` of a ledger again under
 * `policy` — the agent, tool and parameters of its `tool.called`, and the subject, client and agent
 * path the record holds — and reports what would change: calls that ran and would be denied, calls
 * refused that would run, and calls that would now be asked about, grouped by the deciding rule. It
 * runs no tool. A record written before toolgate recorded subjects is not judged where the policy
 * has rules on paths, commands or hosts for its tool: it is listed in `unjudged`, never guessed.
 *
 * @example
 * const result = await backtestDecisions(store.read(), { policy: parsePolicyText(text, 'stricter.yaml') });
 * for (const change of result.changes) console.log(change.seq, change.kind, change.now.reason);
 */
export async function backtestDecisions(
  events: AsyncIterable<LedgerEvent>,
  options: BacktestOptions,
): Promise<BacktestResult> {
  const { policy } = options;
  const document = options.document ?? (policy as { document?: PolicyDocument }).document;
  const parameters = new Map<string, JsonObject>();
  const changes: BacktestChange[] = [];
  const unjudged: BacktestUnjudged[] = [];
  const groups = new Map<
    string,
    { kind: BacktestChangeKind; rule?: number; layer?: string; seqs: number[] }
  >();
  let judged = 0;
  const needs = new Map<string, boolean>();
  const needsSubject = (tool: string): boolean => {
    let found = needs.get(tool);
    if (found === undefined) {
      found = document === undefined || dependsOnSubject(document, tool);
      needs.set(tool, found);
    }
    return found;
  };
  for await (const event of events) {
    const payload = (event.payload ?? {}) as JsonObject;
    const key = `${event.runId}\u0000${String(payload.callId)}`;
    if (event.kind === 'tool.called') {
      parameters.set(key, (payload.parameters ?? {}) as JsonObject);
      continue;
    }
    if (event.kind !== 'policy.decided') continue;
    const callId = String(payload.callId);
    const tool = String(payload.tool);
    const called = parameters.get(key);
    const skip = (reason: string) => unjudged.push({ seq: event.seq, callId, tool, reason });
    if (called === undefined) {
      skip(`no tool.called of call "${callId}" comes before it: its parameters are unknown`);
      continue;
    }
    if (payload.subject === undefined && needsSubject(tool)) {
      skip(
        'the record holds no subject (it was written before toolgate recorded them), and the policy ' +
          `has rules on paths, commands or hosts for "${tool}"`,
      );
      continue;
    }
    judged++;
    const now = policy.decide(judgedRequest(event, payload, called));
    const verdict = ((payload.verdict ?? {}) as { decision?: Decision }).decision ?? 'deny';
    const outcome = payload.decision === 'allow' ? 'allow' : 'deny';
    const kind = changeOf(verdict, outcome, now.decision);
    if (kind === undefined) continue;
    changes.push({
      kind,
      seq: event.seq,
      runId: event.runId,
      callId,
      agent: event.actor,
      tool,
      was: { verdict, outcome },
      now,
    });
    const group = `${kind}\u0000${now.layer ?? ''}\u0000${now.rule ?? ''}`;
    const found = groups.get(group);
    if (found) found.seqs.push(event.seq);
    else
      groups.set(group, {
        kind,
        ...(now.rule === undefined ? {} : { rule: now.rule }),
        ...(now.layer === undefined ? {} : { layer: now.layer }),
        seqs: [event.seq],
      });
  }
  return { judged, unchanged: judged - changes.length, changes, groups: [...groups.values()], unjudged };
}

function changeOf(
  verdict: Decision,
  outcome: 'allow' | 'deny',
  now: Decision,
): BacktestChangeKind | undefined {
  if (now === 'ask') return verdict === 'ask' ? undefined : 'new ask';
  if (now === 'deny' && outcome === 'allow') return 'allowed → denied';
  if (now === 'allow' && outcome === 'deny') return 'denied → allowed';
  return undefined;
}
