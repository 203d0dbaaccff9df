import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where this thread's call cgroups go: a directory of the cgroup v1 `pids` hierarchy it can write
 * (its own cgroup there), and the thread id that moves in and out of them.
 */
interface PidsHierarchy {
  /** This thread's own cgroup directory: call cgroups are made inside it, and the thread returns to it. */
  home: string;
  /** This thread's id (the main thread's is the process id). */
  thread: string;
}

/** Undefined: not probed yet; null: no writable `pids` hierarchy (or it failed once), so the scan is used. */
let hierarchy: PidsHierarchy | null | undefined;

function text(path: string): string | undefined {
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

function probe(): PidsHierarchy | null {
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

/** Call cgroups left behind by processes that died before their calls ended (emptied by then), removed. */
function removeStale(home: string): void {
  let entries: string[];
  try {
    entries = readdirSync(home);
  } catch {
    return;
  }
  for (const entry of entries) {
    const owner = /^toolgate-call-(\d+)-[0-9a-f]+$/.exec(entry)?.[1];
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

/**
 * One command's cgroup in the cgroup v1 `pids` hierarchy: every process the command starts is in it
 * (a child is born in its parent's cgroup, and only a privileged process can move it out), whatever
 * it does to its process group, session or environment, so its members are read from `cgroup.procs`
 * in O(members) and killed, not found by scanning every process on the machine.
 */
export class CallCgroup {
  readonly #directory: string;

  private constructor(directory: string) {
    this.#directory = directory;
  }

  /**
   * Makes a cgroup for the call `marker` and runs `start` (which spawns the command) with this
   * thread inside it, so the child is born in it; the thread is moved back at once. Undefined, with
   * `start` not run, where there is no writable `pids` hierarchy (this is remembered for the
   * process): the caller then falls back to the `/proc` scan.
   */
  static spawnInside<T>(marker: string, start: () => T): { cgroup: CallCgroup; started: T } | undefined {
    if (hierarchy === undefined) hierarchy = probe();
    const where = hierarchy;
    if (where === null) return undefined;
    const directory = join(where.home, `toolgate-call-${process.pid}-${marker}`);
    try {
      mkdirSync(directory);
    } catch {
      hierarchy = null;
      return undefined;
    }
    try {
      writeFileSync(join(directory, 'tasks'), where.thread);
    } catch {
      hierarchy = null;
      remove(directory);
      return undefined;
    }
    let started: T;
    try {
      started = start();
    } catch (error) {
      leave(where);
      remove(directory);
      throw error;
    }
    leave(where);
    return { cgroup: new CallCgroup(directory), started };
  }

  /** The pids of the processes in the cgroup now (never this process). */
  members(): number[] {
    const listed = text(join(this.#directory, 'cgroup.procs')) ?? '';
    const found: number[] = [];
    for (const entry of listed.split('\n')) {
      const pid = Number(entry);
      if (entry !== '' && pid !== process.pid) found.push(pid);
    }
    return found;
  }

  /** Forbids any further process in the cgroup (`pids.max` 0: a `fork` in it fails), so a kill pass is final. */
  seal(): void {
    try {
      writeFileSync(join(this.#directory, 'pids.max'), '0');
    } catch {
      // removed already
    }
  }

  /** Removes the cgroup; false while a process is still in it. */
  remove(): boolean {
    return remove(this.#directory);
  }
}

/**
 * Moves this thread back to its own cgroup, so its later children are not born in the call's. Should
 * that ever fail, cgroups are not used again by this process (the sealed call cgroup would then make
 * this thread's forks fail: a loud failure, not a silent one).
 */
function leave(where: PidsHierarchy): void {
  try {
    writeFileSync(join(where.home, 'tasks'), where.thread);
  } catch {
    hierarchy = null;
  }
}

function remove(directory: string): boolean {
  try {
    rmdirSync(directory);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** For tests and benches: use (`'auto'`) or ignore (`'scan'`) the `pids` cgroups from now on. */
export function setCallCgroups(mode: 'auto' | 'scan'): void {
  hierarchy = mode === 'scan' ? null : undefined;
}

/** Whether calls are tracked by cgroups in this process (probing once if not yet). */
export function callCgroupsAvailable(): boolean {
  if (hierarchy === undefined) hierarchy = probe();
  return hierarchy !== null;
}
