import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basename } from './command-wrappers.js';
import { parseShellLine, type ShellPipeline } from './shell-line.js';
import { unsafeTokenPrefix } from './shell-words.js';
import { handWrittenLines, shellLine, shimNames } from './test-support/shell-corpus.js';

// The parser against the real shells: every line it accepts is run by dash and by bash with a PATH
// of recording shims, and the commands that ran (and the files its redirections created) must be
// the ones it judged. Every refused line is fine; every disagreement is a failure.
const shells = ['/bin/dash', '/bin/bash'] as const;
const seed = Number(process.env.TOOLGATE_SHELL_SEED ?? 20261201);
const generatedCount = Number(process.env.TOOLGATE_SHELL_LINES ?? 2000);
const fieldSeparator = '\u001f';
const recordEnd = '\u001e';

let base: string;
let shimDirectory: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'toolgate-shell-differential-'));
  shimDirectory = join(base, 'shims');
  mkdirSync(shimDirectory);
  // One write per call (O_APPEND), so the commands of a pipeline never interleave their records.
  const shim = `#!/bin/dash\nprintf '%s${fieldSeparator}' "$0" "$@" '${recordEnd}' >> "$SHIM_LOG"\n`;
  for (const name of shimNames) {
    writeFileSync(join(shimDirectory, name), shim);
    chmodSync(join(shimDirectory, name), 0o755);
  }
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Expected {
  readonly commands: (readonly string[])[];
  readonly files: string[];
}

/** What a line runs when every command succeeds: each pipeline but those after `||`. */
function expectedOf(pipelines: readonly ShellPipeline[]): Expected {
  const commands: (readonly string[])[] = [];
  const files: string[] = [];
  for (const pipeline of pipelines) {
    if (pipeline.after === '||') continue;
    for (const command of pipeline.commands) {
      if (command.argv.length > 0) commands.push(command.argv);
      for (const { operator, target } of command.redirects)
        if (operator !== '<' && operator !== '<&' && operator !== '>&' && target !== '/dev/null')
          files.push(target);
    }
  }
  return { commands, files: [...new Set(files)].sort() };
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

async function runAll(shell: string, lines: readonly string[]): Promise<void> {
  const name = basename(shell);
  const driver = lines
    .map((line, index) => {
      const directory = join(base, name, String(index));
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, 'in.txt'), 'in\n');
      return `cd ${quote(directory)} && SHIM_LOG=${quote(join(base, `${name}-${index}.log`))} && export SHIM_LOG && ${shell} -c ${quote(`${line}\nwait`)} </dev/null >/dev/null 2>&1`;
    })
    .join('\n');
  writeFileSync(join(base, `${name}.driver`), `${driver}\n`);
  const child = spawn('/bin/dash', [join(base, `${name}.driver`)], {
    env: { PATH: shimDirectory, X: 'p  q', HOME: join(base, 'home') },
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  expect(code).not.toBeNull();
}

function ran(shell: string, index: number): { commands: string[][]; files: string[] } {
  const name = basename(shell);
  const log = join(base, `${name}-${index}.log`);
  const records = existsSync(log) ? readFileSync(log, 'utf8').split(`${recordEnd}${fieldSeparator}`) : [];
  const commands = records
    .filter((record) => record !== '')
    .map((record) => record.split(fieldSeparator).slice(0, -1));
  const files = readdirSync(join(base, name, String(index)))
    .filter((file) => file !== 'in.txt')
    .sort();
  return { commands, files };
}

/** True when `actual` is what `judged` can become: each unknown token stands for any words. */
function fits(judged: readonly string[], actual: readonly string[]): boolean {
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

/** A disagreement between what was judged and what ran, in words; undefined when they agree. */
function disagreement(
  expected: Expected,
  actual: { commands: string[][]; files: string[] },
): string | undefined {
  const left = [...actual.commands];
  for (const judged of expected.commands) {
    const name = judged[0]!;
    const shim =
      (shimNames as readonly string[]).includes(basename(name)) &&
      (name === basename(name) || name.startsWith(`${shimDirectory}/`));
    const found = left.findIndex((argv) => fits(judged, argv));
    if (found >= 0) left.splice(found, 1);
    else if (shim) return `judged ${JSON.stringify(judged)} but it did not run`;
  }
  if (left.length > 0) return `ran ${JSON.stringify(left)} which was not judged`;
  if (JSON.stringify(expected.files) !== JSON.stringify(actual.files))
    return `judged writes to ${JSON.stringify(expected.files)} but the files made were ${JSON.stringify(actual.files)}`;
  return undefined;
}

describe('the shell parser against dash and bash', () => {
  it('judges exactly the commands and files each shell runs, for every line it accepts', async () => {
    const generated = fc.sample(shellLine(shimDirectory), { seed, numRuns: generatedCount });
    const lines = [...handWrittenLines(shimDirectory), ...generated];
    const accepted: { line: string; expected: Expected }[] = [];
    for (const line of lines) {
      try {
        accepted.push({ line, expected: expectedOf(parseShellLine(line)) });
      } catch (error) {
        expect((error as { code?: string }).code).toBe('PERMISSION_DENIED');
      }
    }
    const candidates = accepted.map(({ line }) => line);
    await Promise.all(shells.map((shell) => runAll(shell, candidates)));
    const failures: string[] = [];
    for (const shell of shells) {
      accepted.forEach(({ line, expected }, index) => {
        const found = disagreement(expected, ran(shell, index));
        if (found) failures.push(`${shell} ${JSON.stringify(line)}: ${found}`);
      });
    }
    console.log(
      `shell differential (seed ${seed}): ${lines.length} lines, ${accepted.length} accepted and run by dash and bash, ` +
        `${lines.length - accepted.length} refused, ${failures.length} disagreements`,
    );
    expect(failures).toEqual([]);
    // The corpus must exercise both sides: a generator that only produced refusals would prove nothing.
    expect(accepted.length).toBeGreaterThan(lines.length / 5);
    expect(lines.length - accepted.length).toBeGreaterThan(lines.length / 5);
  }, 240_000);
});
