import type { ApprovalRequest, Approver, ApproverAnswer } from './gate-options.js';
import type { PolicySubject } from './policy.js';

/** An approver that remembers `session` answers, and the way to forget them. */
export interface RememberingApprover {
  /** The approver to give the gate (`approver`). */
  readonly approver: Approver;
  /** Forgets every remembered answer for `tool` (or every one at all); returns how many it forgot. */
  revoke(tool?: string): number;
}

/**
 * Wraps `approver` so an answer with `scope: 'session'` is remembered and given again, without
 * asking, to a later `ask` of the same agent (and gateway client) calling the same tool on the same
 * canonical subject — never to another subject, another tool or another agent. A call that touches
 * nothing is the same only with the same parameters, and one whose subject toolgate could not tell
 * is never answered from memory. Each answer given from memory says so and keeps its scope, so the
 * ledger records every use. Only an `ask` reaches an approver: a remembered approval never turns a
 * deny, of any layer, into anything else. Any other answer (`once`, a refusal) is not remembered.
 *
 * @example
 * const remembering = rememberApprovals(askTheUser); // askTheUser may answer { approved: true, scope: 'session' }
 * const gate = new ToolGate(registry, { policy, approver: remembering.approver });
 * remembering.revoke('write_file');
 */
export function rememberApprovals(approver: Approver): RememberingApprover {
  const remembered = new Map<string, { tool: string; answer: ApproverAnswer }>();
  return {
    approver: async (request) => {
      const key = keyOf(request);
      const known = key === undefined ? undefined : remembered.get(key);
      if (known !== undefined) {
        const { answer } = known;
        return {
          ...answer,
          reason: `remembered for this session${answer.reason ? `: ${answer.reason}` : ''}`,
        };
      }
      const given = await approver(request);
      const answer: ApproverAnswer = typeof given === 'boolean' ? { approved: given } : given;
      if (key !== undefined && answer.approved === true && answer.scope === 'session')
        remembered.set(key, { tool: request.tool, answer: { ...answer } });
      return given;
    },
    revoke: (tool) => {
      let forgotten = 0;
      for (const [key, entry] of remembered)
        if (tool === undefined || entry.tool === tool) {
          remembered.delete(key);
          forgotten++;
        }
      return forgotten;
    },
  };
}

/** What makes two asks the same for a remembered answer; undefined when the subject is unknown. */
function keyOf(request: ApprovalRequest): string | undefined {
  const { subject } = request;
  if (subject === undefined) return undefined;
  const sorted = (values: readonly string[] | undefined) => [...(values ?? [])].sort();
  const touches: PolicySubject = {
    paths: sorted(subject.paths),
    hosts: sorted(subject.hosts),
    commands: (subject.commands ?? [])
      .map((command) => [...command])
      .sort((a, b) => (a.join('\0') < b.join('\0') ? -1 : 1)),
  };
  const none = !touches.paths?.length && !touches.hosts?.length && !touches.commands?.length;
  return JSON.stringify([
    request.agent,
    request.agentPath ?? null,
    request.client ?? null,
    request.tool,
    touches,
    none ? request.parameters : null,
  ]);
}
