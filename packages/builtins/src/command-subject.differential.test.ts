import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basename } from './command-wrappers.js';
import { parseShellLine, type ShellPipeline } from './shell-line.js';
import { fits, recorded, runLines, writeShims } from './test-support/recording-shims.js';
import { handWrittenLines, shellLine, shimNames } from './test-support/shell-corpus.js';

// The parser against the real shells: every line it accepts is run by dash and by bash with a PATH
// of recording shims, and the commands that ran (and the files its redirections created) must be
// the ones it judged. Every refused line is fine; every disagreement is a failure.
const shells = ['/bin/dash', '/bin/bash'] as const;
const seed = Number(process.env.TOOLGATE_SHELL_SEED ?? 20261201);
const generatedCount = Number(process.env.TOOLGATE_SHELL_LINES ?? 2000);

let base: string;
let shimDirectory: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'toolgate-shell-differential-'));
  shimDirectory = join(base, 'shims');
  writeShims(shimDirectory, shimNames);
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
    await Promise.all(shells.map((shell) => runLines({ shell, lines: candidates, base, shimDirectory })));
    const failures: string[] = [];
    for (const shell of shells) {
      accepted.forEach(({ line, expected }, index) => {
        const found = disagreement(expected, recorded(base, shell, index));
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
