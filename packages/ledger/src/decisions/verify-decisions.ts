import {
  type JsonObject,
  type PolicyDocument,
  type PolicyRequest,
  type PolicySubject,
  type PolicyVerdict,
  parsePolicy,
  RulePolicy,
  ToolgateError,
} from '@toolgate/core';
import type { LedgerEvent } from '../chain/event.js';
import { answerBindingFault } from './answer-binding.js';
import { type PolicyLayers, policyDigest, policyRecordedKind } from './policy-record.js';

/** A recorded decision that the recorded policy does not give, or that cannot be re-judged. */
export interface DecisionFault {
  readonly seq: number;
  readonly callId: string;
  readonly tool: string;
  /** What the record says, e.g. `allow (rule 2)`. */
  readonly recorded: string;
  /** What the recorded policy gives, e.g. `deny (rule 0)`; absent when it cannot be re-judged. */
  readonly replayed?: string;
  readonly reason: string;
}

/** What {@link verifyDecisions} found. */
export interface DecisionsResult {
  /** True when every `policy.decided` record was re-judged and agreed. */
  readonly ok: boolean;
  /** How many `policy.decided` records were re-judged and agreed. */
  readonly agreed: number;
  readonly faults: readonly DecisionFault[];
}

/** What {@link verifyDecisions} takes. */
export interface VerifyDecisionsOptions {
  /** Policy documents handed over beside the ledger, for runs that recorded only a digest. */
  readonly documents?: readonly PolicyDocument[];
}

interface RunPolicy {
  readonly policy: RulePolicy | ReturnType<typeof parsePolicy>;
  readonly document: PolicyDocument;
}

/**
 * Re-judges every recorded policy decision: for each `policy.decided`, the policy its run recorded
 * (`policy.recorded`, by digest; the document in the record or among `documents`) decides the
 * recorded call again (agent, tool, the parameters of its `tool.called`, the recorded subject), and
 * the verdict must be the recorded one; the recorded outcome must follow from the verdict and the
 * answer. Where it cannot tell (no policy recorded, no subject where a rule on paths, commands or
 * hosts could apply), that is a fault too: it never passes what it could not check.
 */
export async function verifyDecisions(
  events: AsyncIterable<LedgerEvent>,
  options: VerifyDecisionsOptions = {},
): Promise<DecisionsResult> {
  const beside = new Map((options.documents ?? []).map((document) => [policyDigest(document), document]));
  const policies = new Map<string, RunPolicy>();
  const parameters = new Map<string, JsonObject>();
  const faults: DecisionFault[] = [];
  let agreed = 0;
  for await (const event of events) {
    const payload = (event.payload ?? {}) as JsonObject;
    if (event.kind === policyRecordedKind) {
      policies.set(event.runId, runPolicy(event, payload, beside));
    } else if (event.kind === 'tool.called') {
      parameters.set(
        `${event.runId}\u0000${String(payload.callId)}`,
        (payload.parameters ?? {}) as JsonObject,
      );
    } else if (event.kind === 'policy.decided') {
      const fault = judge(event, payload, policies.get(event.runId), parameters);
      if (fault) faults.push(fault);
      else agreed++;
    }
  }
  return { ok: faults.length === 0, agreed, faults };
}

function runPolicy(event: LedgerEvent, payload: JsonObject, beside: Map<string, PolicyDocument>): RunPolicy {
  const digest = typeof payload.digest === 'string' ? payload.digest : '';
  const document = (payload.document as PolicyDocument | undefined) ?? beside.get(digest);
  if (!document) {
    throw new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `the run "${event.runId}" recorded a policy by digest only (${digest}, seq ${event.seq}): hand over the policy document with --policy FILE`,
    );
  }
  if (policyDigest(document) !== digest) {
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `the policy recorded at seq ${event.seq} does not have its recorded digest ${digest}: the record was edited`,
    );
  }
  const parsed = parsePolicy(document, `the policy recorded at seq ${event.seq}`);
  // a layered policy's verdicts name a layer and a rule's index within it: judge with its layers
  const layers = payload.layers as unknown as PolicyLayers | undefined;
  return { policy: layers ? new RulePolicy(parsed.document, layers) : parsed, document };
}

function judge(
  event: LedgerEvent,
  payload: JsonObject,
  run: RunPolicy | undefined,
  parameters: Map<string, JsonObject>,
): DecisionFault | undefined {
  const callId = String(payload.callId);
  const tool = String(payload.tool);
  const verdict = (payload.verdict ?? {}) as unknown as PolicyVerdict;
  const recorded = described(verdict);
  const fault = (reason: string, replayed?: string): DecisionFault => ({
    seq: event.seq,
    callId,
    tool,
    recorded,
    ...(replayed === undefined ? {} : { replayed }),
    reason,
  });
  if (!run)
    return fault(
      `its run "${event.runId}" recorded no policy (policy.recorded) before it: nothing to judge by`,
    );
  const called = parameters.get(`${event.runId}\u0000${callId}`);
  if (!called) return fault(`no tool.called of call "${callId}" comes before it: its parameters are unknown`);
  if (payload.subject === undefined && dependsOnSubject(run.document, tool)) {
    return fault(
      `the record holds no subject (it was written before toolgate recorded them), and the policy has ` +
        `rules on paths, commands or hosts for "${tool}": what the call touched cannot be re-judged`,
    );
  }
  const replay = run.policy.decide(judgedRequest(event, payload, called));
  const replayed = described(replay);
  if (
    replay.decision !== verdict.decision ||
    replay.rule !== verdict.rule ||
    replay.layer !== verdict.layer
  ) {
    return fault(`the recorded verdict is ${recorded}, the recorded policy gives ${replayed}`, replayed);
  }
  const answer = payload.answer as { approved?: unknown } | undefined;
  const unbound = answerBindingFault(payload.answer as JsonObject | undefined, called);
  if (unbound) return fault(unbound, replayed);
  // an allowed call a caller refused (an app's own approval policy) is a deny
  const outcome =
    verdict.decision === 'ask'
      ? answer?.approved === true
        ? 'allow'
        : 'deny'
      : verdict.decision === 'allow' && answer?.approved === false
        ? 'deny'
        : verdict.decision;
  if (payload.decision !== outcome) {
    return fault(
      `the call was recorded as ${String(payload.decision)}, but its verdict ${recorded}` +
        `${verdict.decision === 'ask' ? ` with the answer approved=${String(answer?.approved ?? false)}` : ''} gives ${outcome}`,
      replayed,
    );
  }
  return undefined;
}

/**
 * The request a `policy.decided` record judged: its agent, tool, the recorded call's parameters, and
 * what the record holds of the subject (`null`: unknown when it was judged), client and agent path.
 */
export function judgedRequest(
  event: LedgerEvent,
  payload: JsonObject,
  parameters: JsonObject,
): PolicyRequest {
  const request: PolicyRequest = { agent: event.actor, tool: String(payload.tool), parameters };
  const subject = payload.subject as PolicySubject | null | undefined;
  if (subject !== undefined && subject !== null) request.subject = subject;
  if (typeof payload.client === 'string') request.client = payload.client;
  if (typeof payload.agentPath === 'string') request.agentPath = payload.agentPath;
  return request;
}

/** True when a rule with paths, commands, hosts or resources names the tool (by core's own tool matching). */
export function dependsOnSubject(document: PolicyDocument, tool: string): boolean {
  return document.rules.some((rule) => {
    if (!rule.paths && !rule.commands && !rule.hosts && !rule.resources) return false;
    if (!rule.tools) return true;
    const probe = new RulePolicy({ default: 'allow', rules: [{ tools: rule.tools, decision: 'deny' }] });
    return probe.decide({ agent: 'probe', tool, parameters: {} }).decision === 'deny';
  });
}

function described(verdict: Partial<PolicyVerdict>): string {
  const layer = verdict.layer === undefined ? '' : ` of layer ${verdict.layer}`;
  return `${String(verdict.decision)}${verdict.rule === undefined ? ' (the default)' : ` (rule ${verdict.rule}${layer})`}`;
}
