import { spawnSync } from 'node:child_process';
import { ToolgateError } from '@toolgate/core';
import { commandStdio } from '../exec/index.js';
import type { SandboxUser } from './sandbox-user.js';

/** Files of `/proc` whose write would be host-root code execution or a host crash, checked by name. */
const rootOnlyFiles = [
  '/proc/sys/kernel/core_pattern',
  '/proc/sys/kernel/modprobe',
  '/proc/sys/vm/drop_caches',
  '/proc/sys/fs/binfmt_misc/register',
  '/proc/sysrq-trigger',
  '/proc/mtrr',
];

/**
 * The probe's script: it prints every root-only `/proc` file it may open for writing (named ones,
 * then any other writable file outside the per-process directories and the pressure files, which
 * every user may write) and whether the workspace (its working directory) is writable. It opens
 * nothing for writing: `test -w` asks the kernel's permission check, mounts included.
 */
const probeScript = [
  `for f in ${rootOnlyFiles.join(' ')}; do if [ -w "$f" ]; then echo "writable $f"; fi; done`,
  `if command -v find >/dev/null 2>&1; then find /proc -mindepth 1 -maxdepth 5 \\( -path '/proc/[0-9]*' -o -path /proc/self -o -path /proc/thread-self -o -path /proc/pressure \\) -prune -o -writable -print 2>/dev/null | sed 's/^/writable /'; fi`,
  `if [ ! -w . ]; then echo 'workspace-not-writable'; fi`,
  'echo probed',
].join('\n');

/** How {@link probeSandbox} runs its probe. */
export interface SandboxProbe {
  /** The bubblewrap executable. */
  bubblewrap: string;
  /** Everything between bubblewrap and the shell: its arguments, then the user drop and limits. */
  args: readonly string[];
  shell: string;
  root: string;
  /** The user commands run as, when this process is root. */
  user: SandboxUser | undefined;
}

/**
 * Runs a probe in the sandbox once, and throws a COMMAND_FAILED error saying what is wrong when the
 * sandbox cannot be made, when a root-only `/proc` file is writable inside, or when the workspace
 * is not writable by the user commands run as: never a silent fallback to running unsandboxed or
 * with global root inside.
 */
export function probeSandbox(probe: SandboxProbe): void {
  if (process.platform !== 'linux') {
    throw new ToolgateError(
      'COMMAND_FAILED',
      `SandboxEnvironment runs commands in a bubblewrap sandbox, which needs Linux (this is ${process.platform}); ` +
        'use LocalEnvironment, which confines paths but is not a sandbox',
    );
  }
  const { bubblewrap, shell } = probe;
  const result = spawnSync(bubblewrap, [...probe.args, shell, '-c', probeScript], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: commandStdio(),
    timeout: 30_000,
    encoding: 'utf8',
  });
  const code = (result.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') {
    throw new ToolgateError(
      'COMMAND_FAILED',
      `bubblewrap is not installed (${JSON.stringify(bubblewrap)} was not found); SandboxEnvironment needs it: ` +
        'install it (apt-get install bubblewrap on Debian and Ubuntu, dnf install bubblewrap on Fedora) ' +
        'or pass bubblewrapPath',
      { cause: result.error },
    );
  }
  const lines = (result.stdout ?? '').split('\n');
  if (probe.user && /cannot change directory to/.test(result.stderr ?? ''))
    lines.push('workspace-not-writable', 'probed');
  if (result.error || result.status !== 0 || !lines.includes('probed')) {
    const why = result.error ? result.error.message : (result.stderr ?? '').trim() || `exit ${result.status}`;
    throw new ToolgateError(
      'COMMAND_FAILED',
      `bubblewrap (${JSON.stringify(bubblewrap)}) could not create the sandbox: ${why.slice(0, 500)}; ` +
        'it needs user namespaces: allow them (sysctl kernel.unprivileged_userns_clone=1, and on Ubuntu 23.10+ ' +
        'an AppArmor profile for bwrap or sysctl kernel.apparmor_restrict_unprivileged_userns=0), or in a ' +
        `container a seccomp profile that permits them; the shell ${JSON.stringify(shell)} must exist inside`,
      { cause: result.error },
    );
  }
  const writable = [
    ...new Set(lines.filter((line) => line.startsWith('writable ')).map((line) => line.slice(9))),
  ];
  if (writable.length > 0) {
    throw new ToolgateError(
      'COMMAND_FAILED',
      `the sandbox leaves root-only files of /proc writable (${writable.slice(0, 10).join(', ')}); a command ` +
        'could change the host kernel through them, so SandboxEnvironment refuses to run commands: run toolgate ' +
        'as an unprivileged user, or report this with the bubblewrap version',
    );
  }
  if (lines.includes('workspace-not-writable')) {
    const who = probe.user ? `uid ${probe.user.uid} (gid ${probe.user.gid})` : `uid ${process.getuid?.()}`;
    throw new ToolgateError(
      'COMMAND_FAILED',
      `sandboxed commands run as ${who}, which cannot enter and write the workspace root ${JSON.stringify(probe.root)}` +
        (probe.user
          ? '; this process is root, and commands never run as root inside the sandbox: give the workspace to the ' +
            `user commands should run as (chown -R ${probe.user.uid}:${probe.user.gid} ${probe.root}, or own it by ` +
            'any user and the sandbox runs as its owner), or pass sandboxUser'
          : '; make it writable by that user'),
    );
  }
}
