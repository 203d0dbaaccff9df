import { randomBytes } from 'node:crypto';
import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PidsHierarchy, probePidsHierarchy, text } from './pids-hierarchy.js';

/** Undefined: not probed yet; null: no writable `pids` hierarchy (or it failed once), so the scan is used. */
let hierarchy: PidsHierarchy | null | undefined;

/**
 * At most this many emptied call cgroups are kept per thread for later calls (making and removing a
 * cgroup costs about as much as the rest of a short call); more are removed when their call ends.
 */
const maxIdle = 4;
/**
 * How long an emptied call cgroup waits for the next call before it is removed: calls in a burst
 * reuse it, and a process killed by a signal (which runs no exit hook) leaves none behind once it
 * was idle that long (what is left, empty, the next process to probe the hierarchy removes).
 */
const idleMs = 2000;
/** This thread's emptied call cgroups, the last released last; each is checked empty again before a call takes it. */
const idle: Array<{ directory: string; since: number }> = [];
let removalPending = false;
/** Every call cgroup this thread has made and not removed: removed when the thread exits. */
const made = new Set<string>();
let count = 0;
/** Tells this copy of the module from another in the same thread (a second copy of the package). */
const instance = randomBytes(4).toString('hex');
/** Whether this thread has moved into a call cgroup and back once, which proves it may (see {@link CallCgroup.take}). */
let entered = false;
let exitHookInstalled = false;

/**
 * One command's cgroup in the cgroup v1 `pids` hierarchy: every process the command starts is in it
 * (a child is born in its parent's cgroup, and only a privileged process can move it out), whatever
 * it does to its process group, session or environment, so its members are read from `cgroup.procs`
 * in O(members) and killed, not found by scanning every process on the machine. Cgroups are reused
 * by later calls of the same thread once every process in them is dead, never by two calls at once.
 * The command's shell moves itself in (one migration, in the child, before the command runs), not
 * this thread around the `fork`: moving a task waits for every `fork` and `exit` on the machine in
 * flight, and moving this thread back right after its child started waited for that child's.
 */
export class CallCgroup {
  readonly #directory: string;

  private constructor(directory: string) {
    this.#directory = directory;
  }

  /**
   * An empty cgroup for one call (an idle one of this thread, else a new one), or undefined where
   * there is no `pids` hierarchy this process can write (learnt once, by moving this thread into a
   * first cgroup and back, and remembered for the process): the caller then falls back to the
   * `/proc` scan. The command's shell enters it itself, as its first act ({@link CallCgroup.entry}).
   */
  static take(): CallCgroup | undefined {
    if (hierarchy === undefined) hierarchy = probePidsHierarchy();
    const where = hierarchy;
    if (where === null) return undefined;
    let directory: string | undefined;
    try {
      directory = emptyCgroup(where);
      if (!entered) {
        writeFileSync(join(directory, 'tasks'), where.thread);
        entered = true;
        leave(where);
      }
      return new CallCgroup(directory);
    } catch {
      hierarchy = null;
      if (directory !== undefined) remove(directory);
      return undefined;
    }
  }

  /**
   * What a POSIX shell runs first, before the command, on the command's own line: it writes its own
   * pid into the cgroup's `cgroup.procs`, or exits 126 without running anything of the command. The
   * shell has started nothing by then, so every process of the command is born inside; a line that
   * does not parse runs nothing at all, this included.
   */
  get entry(): string {
    return `echo $$ > '${join(this.#directory, 'cgroup.procs').replaceAll("'", "'\\''")}' || exit 126; `;
  }

  /** The pids of the processes in the cgroup now (never this process). */
  members(): number[] {
    return membersOf(this.#directory) ?? [];
  }

  /** Forbids any further process in the cgroup (`pids.max` 0: a `fork` in it fails), so a kill pass is final. */
  seal(): void {
    try {
      writeFileSync(join(this.#directory, 'pids.max'), '0');
    } catch {
      // removed already
    }
  }

  /**
   * Hands the cgroup, found empty after its call (every process in it killed), to a later call of
   * this thread: unsealed again if it was sealed, or removed where enough are idle already or it
   * cannot be unsealed.
   */
  release(sealed: boolean): void {
    if (idle.length >= maxIdle || (sealed && !unseal(this.#directory))) {
      remove(this.#directory);
      return;
    }
    idle.push({ directory: this.#directory, since: performance.now() });
    if (!removalPending) removeIdleIn(idleMs);
  }

  /** Removes the cgroup; false while a process is still in it. */
  remove(): boolean {
    return remove(this.#directory);
  }
}

/** The pids listed in a cgroup's `cgroup.procs` (never this process); undefined where it cannot be read. */
function membersOf(directory: string): number[] | undefined {
  const listed = text(join(directory, 'cgroup.procs'));
  if (listed === undefined) return undefined;
  const found: number[] = [];
  for (const entry of listed.split('\n')) {
    const pid = Number(entry);
    if (entry !== '' && pid !== process.pid) found.push(pid);
  }
  return found;
}

/** An idle cgroup of this thread that is still there and holds no process, else a new one (throws if it cannot be made). */
function emptyCgroup(where: PidsHierarchy): string {
  for (let entry = idle.pop(); entry !== undefined; entry = idle.pop()) {
    if (membersOf(entry.directory)?.length === 0) return entry.directory;
    remove(entry.directory);
  }
  const directory = join(
    where.home,
    `toolgate-pool-${process.pid}-${where.thread}-${instance}-${(count++).toString(16)}`,
  );
  mkdirSync(directory);
  made.add(directory);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const left of made) remove(left);
    });
  }
  return directory;
}

/** Removes the cgroups idle for {@link idleMs} or more; looks again later while some are left. */
function removeIdle(): void {
  removalPending = false;
  const now = performance.now();
  while (idle[0] !== undefined && now - idle[0].since >= idleMs) {
    const oldest = idle.shift();
    if (oldest !== undefined) remove(oldest.directory);
  }
  if (idle[0] !== undefined) removeIdleIn(idleMs - (now - idle[0].since));
}

function removeIdleIn(ms: number): void {
  removalPending = true;
  setTimeout(removeIdle, ms).unref();
}

function unseal(directory: string): boolean {
  try {
    writeFileSync(join(directory, 'pids.max'), 'max');
    return true;
  } catch {
    return false;
  }
}

/** Moves this thread back to its own cgroup after the first probe; should that fail, cgroups are not used again by this process. */
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
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
  }
  made.delete(directory);
  return true;
}

/** For tests and benches: use (`'auto'`) or ignore (`'scan'`) the `pids` cgroups from now on. */
export function setCallCgroups(mode: 'auto' | 'scan'): void {
  hierarchy = mode === 'scan' ? null : undefined;
}

/** Whether calls are tracked by cgroups in this process (probing once if not yet). */
export function callCgroupsAvailable(): boolean {
  if (hierarchy === undefined) hierarchy = probePidsHierarchy();
  return hierarchy !== null;
}
