import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type PolicyRule, parsePolicyText, ToolgateError } from '@toolgate/core';
import { rewritePolicyFile } from './policy-rewrite.js';

/** The rules of one policy file (the layer that remembers `always` answers), in order: number N is `[N - 1]`. */
export async function listRules(file: string): Promise<readonly PolicyRule[]> {
  return parsePolicyText(await readFile(file, 'utf8'), file).document.rules;
}

/**
 * Removes the rules numbered `numbers` (from 1, as {@link listRules} lists them) from a policy file
 * — how an `always` answer is revoked — keeping the file's other text (YAML comments and layout),
 * written as `writeAlwaysRule` writes (atomically, one writer at a time across processes). A number
 * that names no rule changes nothing and throws INVALID_DEFINITION. Returns the rules removed.
 *
 * @example
 * const removed = await forgetRules('user.yaml', [2]);
 */
export async function forgetRules(file: string, numbers: readonly number[]): Promise<PolicyRule[]> {
  let removed: PolicyRule[] = [];
  await rewritePolicyFile(file, async (text) => {
    const had = parsePolicyText(text, file).document.rules;
    const wrong = numbers.find(
      (number) => !Number.isSafeInteger(number) || number < 1 || number > had.length,
    );
    if (wrong !== undefined) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `${file} has ${had.length} rule(s), numbered 1 to ${had.length}; there is no rule ${wrong}, so none was removed`,
      );
    }
    const gone = new Set(numbers.map((number) => number - 1));
    removed = had.filter((_rule, index) => gone.has(index));
    const next = await withoutRules(text, gone, file);
    if (parsePolicyText(next, file).document.rules.length !== had.length - gone.size)
      throw new Error(`removing rules from ${file} did not leave the others; it is left as it was`);
    return next;
  });
  return removed;
}

async function withoutRules(text: string, gone: ReadonlySet<number>, file: string): Promise<string> {
  if (extname(file) === '.json') {
    const data = JSON.parse(text) as { rules?: PolicyRule[] };
    data.rules = (data.rules ?? []).filter((_rule, index) => !gone.has(index));
    return `${JSON.stringify(data, null, 2)}\n`;
  }
  const { isSeq, parseDocument } = await import('yaml');
  const document = parseDocument(text);
  const rules = document.get('rules', true);
  if (!isSeq(rules)) throw new Error(`${file}: rules is not a list`);
  rules.items = rules.items.filter((_item, index) => !gone.has(index));
  if (rules.items.length === 0) rules.flow = true; // rules: []
  return document.toString({ flowCollectionPadding: false });
}
