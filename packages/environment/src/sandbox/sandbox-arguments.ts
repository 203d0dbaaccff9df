import { lstatSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxUser } from './sandbox-user.js';

/** What the bubblewrap command line is built from. */
export interface SandboxLayout {
  /** The workspace, bound writable at the same path. */
  root: string;
  /** Share the host's network namespace. Default: a new, empty one (no network, not even loopback). */
  allowNetwork: boolean;
  /** Extra host paths bound read-only at the same path. */
  readOnlyPaths: readonly string[];
  /**
   * When this process is root: the user the command is dropped to. bubblewrap then runs without a
   * user namespace (it needs none as root) and `setpriv` drops to this user before the shell.
   */
  user?: SandboxUser | undefined;
  /** Size of the private `/tmp` and of `/dev/shm`, bytes each; Infinity for the kernel's default (half the memory). */
  tmpBytes: number;
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

/**
 * The files of `/proc` that only root may write (kernel tunables, the SysRq trigger, interrupt and
 * bus settings, MTRRs), covered read-only over the sandbox's fresh `/proc`: Docker's read-only proc
 * paths and bubblewrap's own list, which bubblewrap skips when run as root.
 */
export const procCovers = [
  '/proc/sys',
  '/proc/sysrq-trigger',
  '/proc/irq',
  '/proc/bus',
  '/proc/fs',
  '/proc/mtrr',
  '/proc/acpi',
];

function isUnder(path: string, directory: string): boolean {
  return path === directory || path.startsWith(`${directory}/`);
}

/** `/a/b/c` → `/a`, `/a/b`. */
function parentsOf(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, index) => `/${parts.slice(0, index + 1).join('/')}`);
}

function namespaceArguments(layout: SandboxLayout): string[] {
  const session = ['--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  if (layout.user === undefined) {
    return ['--unshare-all', ...(layout.allowNetwork ? ['--share-net'] : []), ...session];
  }
  // As root: every namespace but the user one (its uid 0 would still be the host's root), and only
  // the capabilities setpriv needs to become the user, which it then drops from every set.
  return [
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(layout.allowNetwork ? [] : ['--unshare-net']),
    ...session,
    ...['--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP'],
  ];
}

/**
 * The bubblewrap arguments (before the command) for one sandboxed command: new PID, IPC, UTS, cgroup
 * and network namespaces (and a user namespace, unless root drops to a user), a new session, no
 * capabilities, killed with its parent; the system directories read-only, a fresh `/proc` with its
 * root-only files read-only, `/dev` and a private `/tmp` of bounded size, and the workspace the only
 * writable host directory.
 */
export function sandboxArguments(layout: SandboxLayout): string[] {
  const args = namespaceArguments(layout);
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
  args.push('--perms', '0755', '--dir', '/etc');
  for (const path of [...etcPaths, ...(layout.allowNetwork ? networkEtcPaths : [])]) {
    args.push('--ro-bind-try', path, path);
  }
  args.push('--proc', '/proc');
  for (const path of procCovers) args.push('--ro-bind-try', path, path);
  // /dev read-only once its own /dev/shm is mounted; /dev/shm and /tmp writable by anyone (as the
  // host's are), each a tmpfs of at most tmpBytes.
  const size = layout.tmpBytes === Infinity ? [] : ['--size', String(layout.tmpBytes)];
  args.push('--dev', '/dev', '--perms', '1777', ...size, '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  args.push('--perms', '1777', ...size, '--tmpfs', '/tmp');
  // After the private /tmp, so paths under the host's /tmp are bound into it; the workspace last, so
  // it stays writable even inside a read-only path.
  const nodeDirectory = dirname(process.execPath);
  const extra = [...layout.readOnlyPaths];
  if (!systemPaths.some((path) => isUnder(nodeDirectory, path))) extra.push(nodeDirectory);
  // The parent directories bubblewrap makes for the binds, traversable by anyone: as root it makes
  // them private, and the dropped user could not reach its workspace or tools by name.
  const parents = new Set([...extra, layout.root].flatMap(parentsOf));
  for (const parent of [...parents].sort()) {
    if (parent === '/tmp' || systemPaths.some((path) => isUnder(parent, path))) continue;
    args.push('--perms', '0755', '--dir', parent);
  }
  for (const path of extra) args.push('--ro-bind', path, path);
  // As root, bubblewrap has dropped its capabilities before it would change directory, so a private
  // workspace is entered after the user drop (dropArguments), not here.
  args.push('--bind', layout.root, layout.root, '--chdir', layout.user ? '/' : layout.root);
  return args;
}
