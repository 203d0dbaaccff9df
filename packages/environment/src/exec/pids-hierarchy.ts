import { readdirSync, readFileSync, readlinkSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where this thread's call cgroups go: a directory of the cgroup v1 `pids` hierarchy it can write
 * (its own cgroup there), and the thread id that moves in and out of them.
 */
export interface PidsHierarchy {
  /** This thread's own cgroup directory: call cgroups are made inside it, and the thread returns to it. */
  home: string;
  /** This thread's id (the main thread's is the process id). */
  thread: string;
}

/** The names of the cgroups this package makes: `toolgate-pool-<pid>-<thread>-<copy>-<n>` (and the former `toolgate-call-<pid>-<marker>`). */
const ownName = /^toolgate-(?:pool|call)-(\d+)-[0-9a-f-]+$/;

/** The text of a file, or undefined where it cannot be read. */
export function text(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The mount point and root of the cgroup v1 hierarchy that carries the `pids` controller, from `/proc/self/mountinfo`. */
function pidsMount(mountinfo: string): { root: string; point: string } | undefined {
  for (const line of mountinfo.split('\n')) {
    const [before, after] = line.split(' - ');
    if (before === undefined || after === undefined) continue;
    const [type, , superOptions] = after.split(' ');
    if (type !== 'cgroup' || !superOptions?.split(',').includes('pids')) continue;
    const fields = before.split(' ');
    const root = fields[3];
    const point = fields[4];
    if (root !== undefined && point !== undefined)
      return { root: unescapeMountField(root), point: unescapeMountField(point) };
  }
  return undefined;
}

/** mountinfo escapes space, tab, newline and backslash as octal. */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 8)));
}

/**
 * This thread's place in the `pids` hierarchy, or null where there is none it can see (no cgroup v1
 * `pids` mount, or its cgroup lies outside what is mounted). Whether it can write there is learnt by
 * trying. Cgroups left behind by dead processes are removed on the way.
 */
export function probePidsHierarchy(): PidsHierarchy | null {
  const mountinfo = text('/proc/self/mountinfo');
  const membership = text('/proc/thread-self/cgroup');
  if (mountinfo === undefined || membership === undefined) return null;
  const mount = pidsMount(mountinfo);
  const line = membership.split('\n').find((entry) => entry.split(':')[1]?.split(',').includes('pids'));
  const path = line?.slice(line.indexOf(':', line.indexOf(':') + 1) + 1);
  if (mount === undefined || path === undefined) return null;
  const relative =
    mount.root === '/' ? path : path.startsWith(`${mount.root}/`) ? path.slice(mount.root.length) : undefined;
  if (relative === undefined && path !== mount.root) return null; // our cgroup is outside what is mounted
  let thread: string;
  try {
    thread = readlinkSync('/proc/thread-self').split('/').at(-1) ?? '';
  } catch {
    return null;
  }
  const home = join(mount.point, relative ?? '/');
  removeStale(home);
  return { home, thread };
}

/** Call cgroups left behind by processes that died before they could remove them (emptied by then), removed. */
function removeStale(home: string): void {
  let entries: string[];
  try {
    entries = readdirSync(home);
  } catch {
    return;
  }
  for (const entry of entries) {
    const owner = ownName.exec(entry)?.[1];
    if (owner === undefined || Number(owner) === process.pid || alive(Number(owner))) continue;
    try {
      rmdirSync(join(home, entry));
    } catch {
      // still holds a process, or not ours to remove
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
