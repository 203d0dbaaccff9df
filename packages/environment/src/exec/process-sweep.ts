import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The environment variable that tags every process a command starts, so that where no cgroup can be
 * made for the call (see `call-cgroup.ts`) the processes that left the command's process group
 * (`setsid`, `setpgid`) can still be found and killed, by this scan of every process. A process that
 * clears its own environment (`env -i`) drops the tag; the call's cgroup, or the sandbox's PID
 * namespace, closes that.
 */
export const callMarkerVariable = 'TOOLGATE_CALL';

const maxRounds = 50;

/** A fresh random tag for one call. */
export function newCallMarker(): string {
  return randomBytes(16).toString('hex');
}

function needle(marker: string): Buffer {
  return Buffer.from(`${callMarkerVariable}=${marker}\0`);
}

function processIds(entries: readonly string[]): string[] {
  return entries.filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
}

/** Processes read per turn of the event loop: reading `/proc` synchronously is ~10× cheaper than through the thread pool. */
const batchSize = 64;

function marked(entries: readonly string[], tag: Buffer, found: number[]): void {
  for (const entry of entries) {
    try {
      if (readFileSync(`/proc/${entry}/environ`).includes(tag)) found.push(Number(entry));
    } catch {
      // gone while we looked, or not ours to read
    }
  }
}

/**
 * The pids of the processes whose environment carries `marker`, read from `/proc` (Linux; empty
 * where there is no `/proc`), in batches that yield to the event loop between them. Zombies have no
 * environment left, so only live processes are found; processes of other users cannot be read and
 * are not found.
 */
export async function markedProcesses(marker: string): Promise<number[]> {
  let entries: string[];
  try {
    entries = processIds(readdirSync('/proc'));
  } catch {
    return [];
  }
  const tag = needle(marker);
  const found: number[] = [];
  for (let start = 0; start < entries.length; start += batchSize) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    marked(entries.slice(start, start + batchSize), tag, found);
  }
  return found;
}

/** {@link markedProcesses}, synchronously, for the moment this process exits. */
export function markedProcessesSync(marker: string): number[] {
  let entries: string[];
  try {
    entries = processIds(readdirSync('/proc'));
  } catch {
    return [];
  }
  const found: number[] = [];
  marked(entries, needle(marker), found);
  return found;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Kills everything a call started: its process group, then every process carrying its marker,
 * scanning again until a scan finds none (a process forking while it is killed is caught by the
 * next round).
 */
export async function killCallProcesses(groupId: number | undefined, marker: string): Promise<void> {
  if (groupId !== undefined) kill(-groupId);
  for (let round = 0; round < maxRounds; round++) {
    const found = await markedProcesses(marker);
    if (found.length === 0) return;
    for (const pid of found) kill(pid);
    if (groupId !== undefined) kill(-groupId);
    await new Promise((resolve) => setTimeout(resolve, Math.min(round * 5, 50)));
  }
}

/** {@link killCallProcesses}, synchronously and in one pass, for the moment this process exits. */
export function killCallProcessesSync(groupId: number | undefined, marker: string): void {
  if (groupId !== undefined) kill(-groupId);
  for (let round = 0; round < 3; round++) {
    const found = markedProcessesSync(marker);
    if (found.length === 0) return;
    for (const pid of found) kill(pid);
  }
}
