import { extname } from 'node:path';
import {
  messageOf,
  type PolicyRequest,
  type PolicyRule,
  type PolicyVerdict,
  parsePolicyText,
  RulePolicy,
} from '@toolgate/core';
import { alwaysRule } from './always-rule.js';
import { rewritePolicyFile } from './policy-rewrite.js';

/** What {@link writeAlwaysRule} takes. */
export interface AlwaysAnswer {
  /** The file of the layer that remembers answers: the last (least authoritative) layer of `policy`. */
  readonly file: string;
  /** The layered policy in force, whose last layer is `file`'s. */
  readonly policy: RulePolicy;
  /** The call that was asked about. */
  readonly request: PolicyRequest;
  /** `allow` for "allow always", `deny` for "deny always". */
  readonly decision: 'allow' | 'deny';
  /** The rule's reason (shown to the model when it refuses a call). */
  readonly reason: string;
}

/** What became of an `always` answer: the rule written (and where), or why nothing was. */
export type AlwaysWritten =
  | {
      readonly written: true;
      readonly rule: PolicyRule;
      readonly file: string;
      readonly verdict: PolicyVerdict;
    }
  | { readonly written: false; readonly why: string };

const writing = new Map<string, Promise<unknown>>();

/**
 * Writes an `always` answer back to the user's layer: appends the rule {@link alwaysRule} makes to
 * `file` (YAML through the `yaml` package's Document API, so its comments and layout stay; JSON
 * re-indented), so the same call is judged by it from now on, without asking. Nothing is written
 * when no rule can name exactly the call, or when the rule would not decide it — an allow in the
 * last layer never loosens an ask or deny a rule (of any layer) gave; it decides only what the
 * default would have asked. The file is written whole to a temporary file beside it and renamed
 * over it, one writer at a time across processes (`FILE.lock`); it is read again just before, and
 * if it changed since it was read (an edit by hand), the rule is appended to the new text instead,
 * so no edit is lost.
 *
 * @example
 * const done = await writeAlwaysRule({ file: 'user.yaml', policy, request, decision: 'allow', reason: 'answered always' });
 */
export async function writeAlwaysRule(answer: AlwaysAnswer): Promise<AlwaysWritten> {
  const made = alwaysRule(answer.request, answer.decision, answer.reason);
  if ('refused' in made) return { written: false, why: made.refused };
  const { rule } = made;
  const { document } = answer.policy;
  const verdict = new RulePolicy({ ...document, rules: [...document.rules, rule] }).decide(answer.request);
  if (verdict.decision !== answer.decision) {
    const now = answer.policy.decide(answer.request);
    return {
      written: false,
      why: `a rule in ${answer.file}, the last layer, cannot change what decided this call (${now.reason}); change that rule instead`,
    };
  }
  const before = writing.get(answer.file) ?? Promise.resolve();
  const done = before.then(() => appendRule(answer.file, rule));
  writing.set(
    answer.file,
    done.catch(() => undefined),
  );
  try {
    await done;
  } catch (error) {
    return { written: false, why: `cannot write ${answer.file}: ${messageOf(error)}` };
  }
  return { written: true, rule, file: answer.file, verdict };
}

/** Appends `rule` to the policy file, atomically, to the text it holds when written. */
function appendRule(file: string, rule: PolicyRule): Promise<void> {
  return rewritePolicyFile(file, async (text) => {
    const next = await withRule(text, rule, file);
    const written = parsePolicyText(next, file).document.rules;
    const had = parsePolicyText(text, file).document.rules;
    if (written.length !== had.length + 1)
      throw new Error(`appending a rule to ${file} did not give one more rule; it is left as it was`);
    return next;
  });
}

/** The policy text with `rule` appended to its `rules`, its other text untouched where the format allows. */
async function withRule(text: string, rule: PolicyRule, file: string): Promise<string> {
  if (extname(file) === '.json') {
    const data = JSON.parse(text) as { rules?: PolicyRule[] };
    data.rules = [...(data.rules ?? []), rule];
    return `${JSON.stringify(data, null, 2)}\n`;
  }
  const { isMap, isSeq, parseDocument } = await import('yaml');
  const document = parseDocument(text);
  if (document.errors.length > 0)
    throw new Error(`${file} is not valid YAML: ${document.errors[0]!.message}`);
  if (document.contents === null) document.contents = document.createNode({ rules: [] }) as never;
  if (!isMap(document.contents)) throw new Error(`${file} is not a policy document (a mapping with rules:)`);
  let rules = document.get('rules', true);
  if (rules === undefined) {
    rules = document.createNode([]);
    document.set('rules', rules);
  }
  if (!isSeq(rules)) throw new Error(`${file}: rules is not a list`);
  if (rules.items.length === 0) rules.flow = false;
  const node = document.createNode(rule);
  for (const pair of node.items) if (isSeq(pair.value)) pair.value.flow = true; // tools: [fs__read]
  node.commentBefore = ` written by toolgate: answered "always" (${rule.decision})`;
  rules.items.push(node);
  return document.toString({ flowCollectionPadding: false });
}
