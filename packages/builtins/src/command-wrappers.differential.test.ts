import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandSubject } from './command-subject.js';
import { fits, recorded, runLines, writeShims } from './test-support/recording-shims.js';

// The wrappers against the real programs: each wrapper on PATH records its argv and then runs the
// real GNU env, nice, timeout, … (or dash and bash for sh -c), whose inner command finds a recording
// shim on PATH again. Every command that really ran must be one the gate judged.
const seed = Number(process.env.TOOLGATE_SHELL_SEED ?? 20261201);
const realPrograms: Record<string, string> = {
  env: '/usr/bin/env',
  nice: '/usr/bin/nice',
  nohup: '/usr/bin/nohup',
  timeout: '/usr/bin/timeout',
  stdbuf: '/usr/bin/stdbuf',
  xargs: '/usr/bin/xargs',
  find: '/usr/bin/find',
  sh: '/bin/dash',
  dash: '/bin/dash',
  bash: '/bin/bash',
};
const leaves = ['a1', 'b2', 'rm'];
const files = ['f', 'g'];

let base: string;
let shimDirectory: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'toolgate-wrapper-differential-'));
  shimDirectory = join(base, 'shims');
  writeShims(shimDirectory, [...Object.keys(realPrograms), ...leaves], realPrograms);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
const argument = fc.constantFrom('x', 'f', '-v', '--', 'A=1', '-n', '5', "'a b'", '"c d"', 'g');
const leaf = fc
  .tuple(fc.constantFrom(...leaves), fc.array(argument, { maxLength: 3 }))
  .map(([name, words]) => [name, ...words].join(' '));
const prefixes = [
  'env',
  'env -i',
  'env A=1 B=2',
  'env -u HOME',
  'env --unset=HOME',
  'env -- ',
  'env A=1 --',
  'env -- A=1',
  'env -0',
  'nice',
  'nice -n 5',
  'nice -n5',
  'nice -5',
  'nice --adjustment=3',
  'nohup',
  'timeout 5',
  'timeout -s KILL 5',
  'timeout --kill-after=1 5s',
  'timeout --preserve-status 5',
  'stdbuf -oL',
  'stdbuf -o L -e0',
  'command',
  'command -p',
  '/usr/bin/env',
  'A=1',
];

/** A command wrapped 0–3 deep: prefixes, `sh -c`/`bash -c` around the rest, xargs and find. */
const wrapped: fc.Memo<string> = fc.memo((depth) => {
  if (depth <= 1) return leaf;
  const inner = wrapped(depth - 1);
  return fc.oneof(
    { weight: 2, arbitrary: leaf },
    {
      weight: 5,
      arbitrary: fc.tuple(fc.constantFrom(...prefixes), inner).map(([prefix, rest]) => `${prefix} ${rest}`),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('sh -c', 'bash -c', 'dash -ec', 'sh -c --'), inner)
        .map(([shell, rest]) => `${shell} ${quote(rest)}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('xargs', 'xargs -n 1', 'xargs -0', 'xargs -r', 'xargs -I{}'), leaf)
        .map(([xargs, rest]) => `echo f g | ${xargs} ${rest}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('-exec', '-execdir'), leaf, fc.constantFrom('{} +', "'{}' ';'", '{} \\;'))
        .map(([exec, rest, end]) => `find . -name f ${exec} ${rest} ${end}`),
    },
  );
});

describe('the wrappers toolgate sees through, against the real programs', () => {
  it('judges every command that really ran, however deeply it was wrapped', async () => {
    const lines = [
      ...fc.sample(wrapped(4), { seed, numRuns: 400 }),
      'find . -name f -delete',
      'find . -name f -exec a1 {} + -exec b2 {} ;',
      "env -i A=1 sh -c 'nice timeout 5 rm f'",
    ];
    const judged = lines.map((line) => commandSubject(line));
    await runLines({ shell: '/bin/dash', lines, base, shimDirectory, files });
    const failures: string[] = [];
    let commandsRan = 0;
    lines.forEach((line, index) => {
      const { commands } = recorded(base, '/bin/dash', index, files);
      commandsRan += commands.length;
      for (const argv of commands)
        if (!judged[index]!.some((candidate) => fits(candidate, argv)))
          failures.push(
            `${JSON.stringify(line)} ran ${JSON.stringify(argv)}, judged ${JSON.stringify(judged[index])}`,
          );
    });
    console.log(
      `wrapper differential (seed ${seed}): ${lines.length} lines, ${commandsRan} commands ran, ${failures.length} not judged`,
    );
    expect(failures).toEqual([]);
    // The leaves really ran through the real wrappers (a shim that exec'd nothing would prove nothing).
    expect(commandsRan).toBeGreaterThan(lines.length * 2);
  }, 240_000);
});
