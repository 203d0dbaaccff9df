import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScript } from '../test-support/run-script.js';
import { makeWorld, sandboxSkipReason, sandboxTestUser, type TempWorld } from '../testing/index.js';

let world: TempWorld;
let secrets: number;
beforeEach(() => {
  world = makeWorld();
  const directory = join(world.base, 'secrets');
  mkdirSync(directory, { mode: 0o755 });
  writeFileSync(join(directory, 'secret.txt'), 'the host secret\n', { mode: 0o644 });
  secrets = openSync(directory, 'r');
});
afterEach(() => {
  closeSync(secrets);
  world.cleanup();
});

const script = new URL('../testing-fixtures/descriptor-leak.ts', import.meta.url).pathname;
const isRoot = process.getuid?.() === 0;

/**
 * Where the descriptors above stderr of a listing (`N target` per line) lead; the one the shell's
 * glob had open on /proc/self/fd is closed by then and has no target.
 */
function beyondStdio(listing: string): string[] {
  return listing
    .split('\n')
    .filter((line) => /^\d+ /.test(line) && Number(line.split(' ')[0]) > 2)
    .map((line) => line.split(' ')[1] ?? '')
    .filter((target) => target !== '');
}

describe.skipIf(sandboxSkipReason() !== undefined)('descriptors a command inherits', () => {
  const users: Array<[string, { uid: number; gid: number } | undefined]> = [['this process', undefined]];
  if (isRoot) users.push(['an unprivileged user (nobody)', sandboxTestUser]);
  it.each(users)(
    'nothing but stdin, stdout and stderr reaches a command, run as %s, with a directory at fd 30',
    async (_who, user) => {
      const run = await runScript(script, [], { descriptors: { 30: secrets }, ...(user ? { user } : {}) });
      expect(run.stderr).toBe('');
      const results = JSON.parse(run.stdout);
      // The process running the environments holds the descriptor: the commands would read through it.
      expect(results.parent).toEqual(['secret.txt']);
      for (const name of ['local', 'sandbox']) {
        expect(results[name].stdout).not.toContain('the host secret');
        expect(results[name].stderr).toMatch(/secret\.txt: (Not a directory|No such file or directory)/);
        // Node cannot close them in the child; each one it would have leaked is /dev/null there.
        const leaked = beyondStdio(results[name].stdout);
        expect(leaked.length).toBeGreaterThan(0);
        expect(leaked.every((target) => target === '/dev/null')).toBe(true);
      }
    },
    120_000,
  );
});
