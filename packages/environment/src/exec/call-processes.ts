import { CallCgroup } from './call-cgroup.js';
import { killCallProcesses, killCallProcessesSync } from './process-sweep.js';

/** Everything one command started, found and killed at its end. */
export interface CallProcesses {
  /** How they are found: the call's cgroup, or a `/proc` scan for its marker. */
  readonly tracking: 'cgroup' | 'scan';
  /** Kills the process group `groupId` and every other process of the call, until none is left. */
  kill(groupId: number | undefined): Promise<void>;
  /** {@link CallProcesses.kill}, synchronously and in few passes, for the moment this process exits. */
  killSync(groupId: number | undefined): void;
}

const maxRounds = 50;
const exitRounds = 20;
/** Waited on (never notified) to sleep synchronously while this process exits. */
const pause = new Int32Array(new SharedArrayBuffer(4));

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function killGroup(groupId: number | undefined): void {
  if (groupId !== undefined) kill(-groupId);
}

class CgroupProcesses implements CallProcesses {
  readonly tracking = 'cgroup';

  constructor(readonly cgroup: CallCgroup) {}

  async kill(groupId: number | undefined): Promise<void> {
    killGroup(groupId);
    let found = this.cgroup.members();
    // Found empty, it stays so (only a member can fork into it): a command that left nothing behind costs no seal.
    if (found.length === 0) return this.cgroup.release(false);
    this.cgroup.seal();
    for (let round = 0; round < maxRounds; round++) {
      for (const pid of found) kill(pid);
      await new Promise((resolve) => setTimeout(resolve, Math.min(round * 5, 50)));
      found = this.cgroup.members();
      if (found.length === 0) return this.cgroup.release(true);
    }
    // A process that cannot die (uninterruptible sleep) keeps the sealed cgroup, out of reuse; it is
    // removed once empty when this thread exits, or by the next process to probe the hierarchy.
  }

  killSync(groupId: number | undefined): void {
    killGroup(groupId);
    this.cgroup.seal();
    // The killed leave the cgroup within milliseconds; waiting for that (at most ~150 ms, only while
    // some are left) lets the cgroup be removed rather than left for the next process to probe.
    for (let round = 0; round < exitRounds; round++) {
      const found = this.cgroup.members();
      if (found.length === 0 && this.cgroup.remove()) return;
      for (const pid of found) kill(pid);
      Atomics.wait(pause, 0, 0, Math.min(round, 10));
    }
  }
}

class ScannedProcesses implements CallProcesses {
  readonly tracking = 'scan';

  constructor(readonly marker: string) {}

  kill(groupId: number | undefined): Promise<void> {
    return killCallProcesses(groupId, this.marker);
  }

  killSync(groupId: number | undefined): void {
    killCallProcessesSync(groupId, this.marker);
  }
}

/**
 * Runs `start` (which spawns `entry` followed by a command line with a POSIX shell, every process of
 * it carrying `marker` in its environment) so that the command's processes can be found at its end:
 * in a cgroup of their own where this process can make one (cgroup v1 `pids`, which the shell enters
 * first; O(the call's processes)), else by scanning `/proc` for the marker (O(the machine's
 * processes); see `process-sweep.ts`), with `entry` empty.
 */
export function spawnTracked<T>(
  marker: string,
  start: (entry: string) => T,
): { started: T; processes: CallProcesses } {
  const cgroup = CallCgroup.take();
  if (cgroup === undefined) return { started: start(''), processes: new ScannedProcesses(marker) };
  let started: T;
  try {
    started = start(cgroup.entry);
  } catch (error) {
    cgroup.release(false);
    throw error;
  }
  return { started, processes: new CgroupProcesses(cgroup) };
}
