import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { basename } from '../command-wrappers.js';
import { unsafeTokenPrefix } from '../shell-words.js';

const fieldSeparator = '\u001f';
const recordEnd = '\u001e';

/**
 * Writes a directory of recording shims: each appends its argv (`$0` first) to `$SHIM_LOG` in one
 * write, then exits 0, or, for a name in `passThrough`, executes the real program it names.
 */
export function writeShims(
  directory: string,
  names: readonly string[],
  passThrough: Readonly<Record<string, string>> = {},
): void {
  mkdirSync(directory, { recursive: true });
  for (const name of names) {
    const record = `printf '%s${fieldSeparator}' "$0" "$@" '${recordEnd}' >> "$SHIM_LOG"`;
    const real = passThrough[name];
    const body = real === undefined ? record : `${record}\nexec ${real} "$@"`;
    writeFileSync(join(directory, name), `#!/bin/dash\n${body}\n`);
    chmodSync(join(directory, name), 0o755);
  }
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * Runs each line with `shell -c` (then `wait`, so `&` jobs finish) in a directory of its own under
 * `base/<shell name>/<index>` holding `in.txt` and any `files`, with PATH only `shimDirectory`;
 * one driver script for all lines, so a run costs one process per shell and per command.
 */
export async function runLines(options: {
  shell: string;
  lines: readonly string[];
  base: string;
  shimDirectory: string;
  files?: readonly string[];
}): Promise<void> {
  const { shell, lines, base, shimDirectory } = options;
  const name = shell.slice(shell.lastIndexOf('/') + 1);
  const driver = lines
    .map((line, index) => {
      const directory = join(base, name, String(index));
      mkdirSync(directory, { recursive: true });
      for (const file of ['in.txt', ...(options.files ?? [])]) writeFileSync(join(directory, file), 'in\n');
      const log = join(base, `${name}-${index}.log`);
      return `cd ${quote(directory)} && SHIM_LOG=${quote(log)} && export SHIM_LOG && ${shell} -c ${quote(`${line}\nwait`)} </dev/null >/dev/null 2>&1`;
    })
    .join('\n');
  const script = join(base, `${name}.driver`);
  writeFileSync(script, `${driver}\n`);
  const child = spawn('/bin/dash', [script], {
    env: { PATH: shimDirectory, X: 'p  q', HOME: join(base, 'home') },
    stdio: 'ignore',
  });
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}

/** The argv of every shim a line ran, and the files left in its directory (but the given ones). */
export function recorded(
  base: string,
  shell: string,
  index: number,
  files: readonly string[] = [],
): { commands: string[][]; files: string[] } {
  const name = shell.slice(shell.lastIndexOf('/') + 1);
  const log = join(base, `${name}-${index}.log`);
  const records = existsSync(log) ? readFileSync(log, 'utf8').split(`${recordEnd}${fieldSeparator}`) : [];
  return {
    commands: records
      .filter((record) => record !== '')
      .map((record) => record.split(fieldSeparator).slice(0, -1)),
    files: readdirSync(join(base, name, String(index)))
      .filter((file) => file !== 'in.txt' && !files.includes(file))
      .sort(),
  };
}

/** True when `actual` is what `judged` can become: each unknown token stands for any words. */
export function fits(judged: readonly string[], actual: readonly string[]): boolean {
  const at = (i: number, j: number): boolean => {
    if (i === judged.length) return j === actual.length;
    const token = judged[i]!;
    if (token.startsWith(unsafeTokenPrefix)) return at(i + 1, j) || (j < actual.length && at(i, j + 1));
    if (j === actual.length) return false;
    const same =
      i === 0 ? token === actual[j] || basename(token) === basename(actual[j]!) : token === actual[j];
    return same && at(i + 1, j + 1);
  };
  return at(0, 0);
}
