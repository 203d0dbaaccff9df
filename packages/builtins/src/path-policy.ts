import type { PolicyVerdict, ToolContext } from '@toolgate/core';

/**
 * What a pattern tool (search_files, glob, list_dir) holds back of the paths it meets: true for a
 * workspace-relative resolved path that policy would refuse. A path is withheld when
 * - policy denies it to this very call (its agent and tool), or would ask about it where the call's
 *   own approval does not cover it (an `ask` rule on the path, not the tool-wide one the call was
 *   approved under): a search meets too many paths to ask about each, so it withholds them; or
 * - a rule on paths denies or asks `read_file` of it: what a search returns of a file is a read
 *   of it, and a listing must not name what read_file may not see. A tool-wide rule on read_file
 *   (no `paths`), or the default, does not count here: it says nothing about this path.
 * Verdicts come from `context.judge`: no approver is asked and nothing is recorded per path; the
 * tool says in its result how many it withheld. `readTool` names read_file as the agent calls it
 * (`fs__read_file` for tools served with a prefix).
 */
export function policyWithholds(
  context: Pick<ToolContext, 'judge' | 'judgesPaths'>,
  readTool = 'read_file',
): (path: string) => boolean {
  if (!policyJudgesPaths(context, readTool)) return withholdsNothing;
  // `{}` touches nothing, so only rules without paths judge it: the tool-wide verdicts
  const callWide = context.judge({});
  const readWide = context.judge({}, { tool: readTool });
  return (path) => {
    const subject = { paths: [path] };
    const own = context.judge(subject);
    if (own.decision === 'deny') return true;
    if (own.decision === 'ask' && !sameVerdict(own, callWide)) return true;
    const read = context.judge(subject, { tool: readTool });
    return read.decision !== 'allow' && !sameVerdict(read, readWide);
  };
}

/**
 * False when policy says no path can change its verdict on this call's tool nor on `readTool`: then
 * {@link policyWithholds} withholds nothing, and a search need not ask about each file it meets.
 */
export function policyJudgesPaths(
  context: Pick<ToolContext, 'judgesPaths'>,
  readTool = 'read_file',
): boolean {
  const judges = context.judgesPaths;
  return judges === undefined || judges() || judges({ tool: readTool });
}

const withholdsNothing = (): boolean => false;

function sameVerdict(one: PolicyVerdict, other: PolicyVerdict): boolean {
  return one.decision === other.decision && one.rule === other.rule;
}

/** `{ withheldByPolicy: n }` when policy withheld any, for a tool's result; `{}` otherwise. */
export function withheldField(count: number): { withheldByPolicy?: number } {
  return count > 0 ? { withheldByPolicy: count } : {};
}
