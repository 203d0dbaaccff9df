import { spawnSync } from 'node:child_process';
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { ToolgateError } from '@toolgate/core';

/** What the bubblewrap command line is built from. */
export interface SandboxLayout {
  /** The workspace, bound writable at the same path. */
  root: string;
  /** Share the host's network namespace. Default: a new, empty one (no network, not even loopback). */
  allowNetwork: boolean;
  /** Extra host paths bound read-only at the same path. */
  readOnlyPaths: readonly string[];
}

/** The system directories bound read-only (or recreated as the symlinks they are, on merged-/usr systems). */
const systemPaths = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** What programs need from /etc, and never the user database (`passwd`, `shadow`, `group`). */
const etcPaths = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/ssl',
  '/etc/ca-certificates',
];

/** What name resolution needs, bound only when the network is allowed. */
const networkEtcPaths = ['/etc/resolv.conf', '/etc/hosts', '/etc/nsswitch.conf', '/etc/gai.conf'];

function isUnder(path: string, directory: string): boolean {
  return path === directory || path.startsWith(`${directory}/`);
}

/**
 * The bubblewrap arguments (before the command) for one sandboxed command: new user, PID, IPC, UTS,
 * cgroup and network namespaces, a new session, no capabilities, killed with its parent; the system
 * directories read-only, a fresh `/proc`, `/dev` and private `/tmp`, and the workspace the only
 * writable host directory.
 */
export function sandboxArguments(layout: SandboxLayout): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  if (layout.allowNetwork) args.push('--share-net');
  for (const path of systemPaths) {
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(path);
    } catch {
      continue;
    }
    if (stats.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (stats.isDirectory()) args.push('--ro-bind', path, path);
  }
  for (const path of [...etcPaths, ...(layout.allowNetwork ? networkEtcPaths : [])]) {
    args.push('--ro-bind-try', path, path);
  }
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  // After the private /tmp, so paths under the host's /tmp are bound into it; the workspace last, so
  // it stays writable even inside a read-only path.
  const nodeDirectory = dirname(process.execPath);
  const extra = [...layout.readOnlyPaths];
  if (!systemPaths.some((path) => isUnder(nodeDirectory, path))) extra.push(nodeDirectory);
  for (const path of extra) args.push('--ro-bind', path, path);
  args.push('--bind', layout.root, layout.root, '--chdir', layout.root);
  return args;
}

/**
 * Runs `shell -c "exit 0"` in the sandbox once, and throws a COMMAND_FAILED error saying what is
 * missing when it cannot: never a silent fallback to running unsandboxed.
 */
export function probeSandbox(bubblewrap: string, args: readonly string[], shell: string): void {
  if (process.platform !== 'linux') {
    throw new ToolgateError(
      'COMMAND_FAILED',
      `SandboxEnvironment runs commands in a bubblewrap sandbox, which needs Linux (this is ${process.platform}); ` +
        'use LocalEnvironment, which confines paths but is not a sandbox',
    );
  }
  const result = spawnSync(bubblewrap, [...args, shell, '-c', 'exit 0'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: ['ignore', 'ignore', 'pipe'],
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
  if (result.error || result.status !== 0) {
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
}
