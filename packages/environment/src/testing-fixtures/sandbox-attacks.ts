import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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

/** Small limits, so each attack reaches its own quickly. */
export const smallLimits = {
  processes: 64,
  memoryBytes: 256 * 1024 * 1024,
  fileBytes: 1024 * 1024,
  cpuSeconds: 1,
  tmpBytes: 8 * 1024 * 1024,
};

/** The attacks on the limits, by the limit each should end on. */
export const limitAttacks: Record<string, string> = {
  processes: 'bomb() { bomb | bomb & }; bomb; sleep 1',
  memoryBytes: 'dd if=/dev/zero of=/dev/null bs=400M count=1',
  // Files each under fileBytes, together past tmpBytes.
  tmpBytes: 'for i in $(seq 1 20); do head -c 900000 /dev/zero > /tmp/filler-$i || exit 1; done',
  fileBytes: 'head -c 2000000 /dev/zero > big.bin',
  cpuSeconds: 'while :; do :; done',
};

/**
 * Runs each of {@link limitAttacks} in `environment` (built with {@link smallLimits}), one after
 * another, then an ordinary command: the name of the limit each ended on, and the last one's output.
 */
export async function runLimitAttacks(environment: Environment): Promise<Record<string, string | undefined>> {
  const ended: Record<string, string | undefined> = {};
  for (const [name, command] of Object.entries(limitAttacks)) {
    ended[name] = (await environment.exec(command, { timeoutMs: 60_000 })).limit?.name;
  }
  ended.after = (await environment.exec('echo answered')).stdout;
  return ended;
}

/**
 * Plants, from inside `environment`, a `core.fsmonitor`, a hook and an `.envrc` that would touch
 * `marker`, then runs `git status` and `git checkout` on the host as a user would: whether the
 * marker appeared, and whether the planted files exist.
 */
export async function plantAttack(environment: Environment, marker: string) {
  await environment.exec(
    `git config core.fsmonitor "touch ${marker}"; ` +
      `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/post-checkout; chmod +x .git/hooks/post-checkout; ` +
      `echo "touch ${marker}" > .envrc`,
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'safe.directory=*', ...args], { cwd: environment.root, stdio: 'ignore' });
  git('status', '--short');
  git('checkout', '-q', '-b', 'after');
  return {
    ran: existsSync(marker),
    hook: existsSync(join(environment.root, '.git', 'hooks', 'post-checkout')),
    envrc: existsSync(join(environment.root, '.envrc')),
  };
}

// Run as a script (`… sandbox-attacks.ts proc`), by a test, as an unprivileged user: the attack in a
// workspace of that user's own, printed as JSON.
if (process.argv[2] === 'sandbox-user') {
  const root = mkdtempSync(join(tmpdir(), 'toolgate-user-'));
  try {
    new SandboxEnvironment({ root, sandboxUser: { uid: 12345, gid: 12345 } });
    console.log(JSON.stringify({ constructed: true }));
  } catch (error) {
    console.log(
      JSON.stringify({ code: (error as { code?: string }).code, message: (error as Error).message }),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'plant') {
  const base = mkdtempSync(join(tmpdir(), 'toolgate-plant-'));
  try {
    const root = join(base, 'ws');
    execFileSync('git', ['init', '-q', root]);
    giveToSandboxUser(root);
    console.log(JSON.stringify(await plantAttack(new SandboxEnvironment({ root }), join(base, 'ran'))));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'proc' || process.argv[2] === 'limits') {
  const root = mkdtempSync(join(tmpdir(), 'toolgate-attack-'));
  try {
    giveToSandboxUser(root);
    const found =
      process.argv[2] === 'proc'
        ? await procAttack(new SandboxEnvironment({ root }))
        : await runLimitAttacks(new SandboxEnvironment({ root, limits: smallLimits }));
    console.log(JSON.stringify(found));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
