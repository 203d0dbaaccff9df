import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Environment } from '../environment.js';
import { SandboxEnvironment } from '../sandbox/index.js';
import { giveToSandboxUser } from '../testing/index.js';

/** Root-only files of `/proc` the attack tries to open for writing (it writes nothing). */
export const rootOnlyTargets = [
  '/proc/sys/kernel/core_pattern',
  '/proc/sys/kernel/modprobe',
  '/proc/sys/vm/drop_caches',
  '/proc/sysrq-trigger',
  '/proc/mtrr',
];

/** What the `/proc` attack found: the uid inside, and the root-only files it could open for writing. */
export interface ProcAttack {
  uid: number;
  opened: string[];
  writable: string[];
}

/**
 * From inside `environment`, opens each root-only `/proc` file for appending (the shell's `>>`
 * opens without writing a byte) and lists any other writable `/proc` file outside the per-process
 * directories and the pressure files, which every user may write.
 */
export async function procAttack(environment: Environment): Promise<ProcAttack> {
  const opens = rootOnlyTargets.map((path) => `(: >> ${path}) 2>/dev/null && echo "opened ${path}"`);
  const result = await environment.exec(
    [
      'echo "uid $(id -u)"',
      ...opens,
      `find /proc -mindepth 1 -maxdepth 5 \\( -path '/proc/[0-9]*' -o -path /proc/self -o -path /proc/thread-self -o -path /proc/pressure \\) -prune -o -writable -print 2>/dev/null | sed 's/^/writable /'`,
    ].join('\n'),
  );
  const lines = result.stdout.split('\n');
  const pick = (prefix: string) =>
    lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
  return { uid: Number(pick('uid ')[0]), opened: pick('opened '), writable: pick('writable ') };
}

// Run as a script (`… sandbox-attacks.ts proc`), by a test, as an unprivileged user: the attack in a
// workspace of that user's own, printed as JSON.
if (process.argv[2] === 'proc') {
  const root = mkdtempSync(join(tmpdir(), 'toolgate-attack-'));
  try {
    giveToSandboxUser(root);
    console.log(JSON.stringify(await procAttack(new SandboxEnvironment({ root }))));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
