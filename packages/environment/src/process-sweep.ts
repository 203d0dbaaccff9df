import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * The environment variable that tags every process a command starts, so the processes that left
 * the command's process group (`setsid`, `setpgid`) can still be found and killed. A process that
 * clears its own environment (`env -i`) drops the tag; only a PID namespace (the sandbox) closes that.
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

/**
 * The pids of the processes whose environment carries `marker`, read from `/proc` (Linux; empty
 * where there is no `/proc`). Zombies have no environment left, so only live processes are found;
 * processes of other users cannot be read and are not found.
 */
export async function markedProcesses(marker: string): Promise<number[]> {
  let entries: string[];
  try {
    entries = processIds(await readdir('/proc'));
  } catch {
    return [];
  }
  const tag = needle(marker);
  const found = await Promise.all(
    entries.map(async (entry) => {
      try {
        return (await readFile(`/proc/${entry}/environ`)).includes(tag) ? Number(entry) : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return found.filter((pid): pid is number => pid !== undefined);
}

/** {@link markedProcesses}, synchronously, for the moment this process exits. */
export function markedProcessesSync(marker: string): number[] {
  let entries: string[];
  try {
    entries = processIds(readdirSync('/proc'));
  } catch {
    return [];
  }
  const tag = needle(marker);
  const found: number[] = [];
  for (const entry of entries) {
    try {
      if (readFileSync(`/proc/${entry}/environ`).includes(tag)) found.push(Number(entry));
    } catch {
      // gone while we looked, or not ours to read
    }
  }
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
