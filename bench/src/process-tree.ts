/**
 * The bench runner's way to stop a bench file and everything it started: each file runs in its own
 * process group, and on SIGINT or SIGTERM the runner signals every descendant it can find (through
 * `ps`, so a grandchild in a process group of its own — a `toolgate-mcp --http` server — is found
 * too) and the group, then SIGKILLs whatever is still there after a grace period.
 */
import { execFileSync } from 'node:child_process';

/** Every live descendant of `root` (children, grandchildren, …), from `ps`; empty when `ps` fails. */
export function descendantsOf(root: number): number[] {
  let table: string;
  try {
    table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const line of table.split('\n')) {
    const [pid, parent] = line.trim().split(/\s+/).map(Number);
    if (!pid || parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false; // already gone
  }
}

/**
 * Stops the process `leader` (which leads its own process group) and all its descendants: SIGTERM
 * to each and to the group, then SIGKILL to any still alive after `graceMs`. Resolves when done.
 */
export async function stopTree(leader: number, graceMs = 3000): Promise<void> {
  const tree = [leader, ...descendantsOf(leader)];
  signal(-leader, 'SIGTERM');
  for (const pid of tree) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && tree.some((pid) => signal(pid, 0))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  signal(-leader, 'SIGKILL');
  for (const pid of tree) signal(pid, 'SIGKILL');
}
