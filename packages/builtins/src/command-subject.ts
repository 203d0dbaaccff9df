import { parse } from 'shell-quote';

/** Marks a token no plain policy rule can match: rules are typed text, and never hold a NUL byte. */
export const unsafeTokenPrefix = '\u0000';

const separators = new Set(['&&', '||', ';', '|', '&']);

/**
 * Splits a shell command line into the argv tokens of every command it runs, for policy rules to
 * match. Environment assignments stay tokens (`FOO=1 npm test` is not `npm test`). Anything the
 * shell would expand, redirect or leave running — `$VAR`, `$(…)`, backticks, globs, redirections,
 * subshells, here-documents, comments, line breaks, backgrounding with `&` — becomes a token starting with a NUL byte, both in place
 * and as a command of its own, so no plain rule can allow the line.
 *
 * @example
 * commandSubject('npm test && rm -rf ~'); // [['npm', 'test'], ['rm', '-rf', '~']]
 */
export function commandSubject(command: string): string[][] {
  const commands: string[][] = [];
  const unsafe: string[][] = [];
  let current: string[] = [];
  const flag = (kind: string, detail: string) => {
    const token = `${unsafeTokenPrefix}${kind}:${detail}`;
    current.push(token);
    unsafe.push([token]);
  };
  if (/[\r\n]/.test(command)) unsafe.push([`${unsafeTokenPrefix}line-break`]);
  const entries = parse(command, (name) => ({ op: 'variable', name }) as unknown as string);
  for (const entry of entries) {
    if (typeof entry === 'string') {
      if (entry.includes('`') || entry.includes('$(')) flag('substitution', entry);
      else if (/\{[^}]*(,|\.\.)[^}]*\}/.test(entry)) flag('brace-expansion', entry);
      else current.push(entry);
      continue;
    }
    if ('comment' in entry) {
      flag('comment', entry.comment);
      continue;
    }
    const operator = entry as { op: string; pattern?: string; name?: string };
    if (operator.op === 'glob') flag('glob', operator.pattern ?? '');
    else if (operator.op === 'variable') flag('variable', `$${operator.name ?? ''}`);
    else if (separators.has(operator.op)) {
      // `&` also backgrounds the command before it, which then outlives the call: never matchable.
      if (operator.op === '&') flag('operator', '&');
      if (current.length > 0) commands.push(current);
      current = [];
    } else flag('operator', operator.op);
  }
  if (current.length > 0) commands.push(current);
  return [...commands, ...unsafe];
}
