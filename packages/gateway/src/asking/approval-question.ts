import type { ApprovalRequest, Approver } from '@toolgate/core';

type ApproverAnswer = Exclude<Awaited<ReturnType<Approver>>, boolean>;

/**
 * The elicitation that asks a client's user to approve a call policy said `ask` for: `approve`, and
 * `remember` — `once`, `session`, and `always` only when `always` is true (a `policy:` layer says
 * `remember: true`). Sent by elicitation to a 2025-11-25 client and by `input_required` to a
 * 2026-07-28 one.
 */
export function approvalQuestion(request: ApprovalRequest, always: boolean) {
  const parameters = JSON.stringify(request.parameters);
  const shown = parameters.length > 2000 ? `${parameters.slice(0, 2000)}…` : parameters;
  return {
    message: `Policy asks before "${request.tool}" runs (${request.reason}). Parameters: ${shown}`,
    requestedSchema: {
      type: 'object' as const,
      properties: {
        approve: {
          type: 'boolean' as const,
          title: 'Approve',
          description: `Let "${request.tool}" run with these parameters`,
        },
        remember: {
          type: 'string' as const,
          title: 'Remember',
          description: `once: this call only; session: the same tool on the same paths, commands and hosts is not asked about again until this session ends${always ? '; always: written to your policy file, so it is not asked about again' : ''}`,
          enum: always ? ['once', 'session', 'always'] : ['once', 'session'],
          default: 'once',
        },
      },
      required: ['approve'],
    },
  };
}

/**
 * The user's accepted answer (`content` of an elicitation) as an approver's answer: approved only
 * when `approve` is true; `scope` is `session` or `always` (that only when `always` was offered)
 * when `remember` says so (`session` only for an approval), else the answer holds once.
 */
export function answerOfContent(
  content: Record<string, unknown> | undefined,
  always: boolean,
): ApproverAnswer {
  const approved = content?.approve === true;
  const remember = content?.remember;
  // a refusal is not remembered for a session (only an "always" one is written, as a deny rule)
  const scope =
    (approved && remember === 'session') || (always && remember === 'always') ? remember : undefined;
  return {
    approved,
    reason: approved ? 'the user approved it' : 'the user declined it',
    ...(scope === undefined ? {} : { scope }),
  };
}
