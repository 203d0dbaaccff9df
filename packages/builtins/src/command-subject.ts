import { ToolgateError } from '@toolgate/core';
import { parse } from 'shell-quote';

/** Marks a token no plain policy rule can match: rules are typed text, and never hold a NUL byte. */
export const unsafeTokenPrefix = '\u0000';

const separators = new Set(['&&', '||', ';', '|', '&']);

/**
 * The longest command line, in UTF-8 bytes, a shell can be given: it is passed to `sh -c` as one
 * argument, and Linux caps one argument at 128 KiB (MAX_ARG_STRLEN, its NUL included).
 */
export const maxCommandBytes = 131_071;

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
  const bytes = command.length > maxCommandBytes / 3 ? Buffer.byteLength(command) : command.length;
  if (bytes > maxCommandBytes) {
    throw new ToolgateError(
      'INVALID_PARAMETERS',
      `the command is ${bytes} bytes long; a shell command line can be at most ${maxCommandBytes} bytes ` +
        '(it is passed to sh -c as one argument, which Linux caps at 128 KiB): write long content to a ' +
        'file with write_file and run a command that reads it',
    );
  }
  const commands: string[][] = [];
  const unsafe: string[][] = [];
  let current: string[] = [];
  const flag = (kind: string, detail: string) => {
    const token = `${unsafeTokenPrefix}${kind}:${detail}`;
    current.push(token);
    unsafe.push([token]);
  };
  if (/[\r\n]/.test(command)) unsafe.push([`${unsafeTokenPrefix}line-break`]);
  let entries: ReturnType<typeof parse>;
  try {
    entries = parse(command, (name) => ({ op: 'variable', name }) as unknown as string);
  } catch (error) {
    // Fail closed: a line policy cannot read is refused, never run unread.
    throw new ToolgateError(
      'INVALID_PARAMETERS',
      `the command cannot be parsed for policy (${(error as Error).message}); simplify the command line`,
      { cause: error },
    );
  }
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
