import { lchownSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageOf } from '@toolgate/core';
import { SandboxEnvironment } from '../sandbox/index.js';

let reason: string | null | undefined;

/**
 * Why the sandbox tests cannot run here (bubblewrap missing, or no namespaces), for `skipIf`; or
 * undefined when they can. Under CI (`CI` set) it throws instead, so CI never skips them.
 *
 * @example
 * describe.skipIf(sandboxSkipReason() !== undefined)('the sandbox', () => { … });
 */
export function sandboxSkipReason(): string | undefined {
  if (reason === undefined) {
    const root = mkdtempSync(join(tmpdir(), 'toolgate-sandbox-probe-'));
    try {
      giveToSandboxUser(root);
      new SandboxEnvironment({ root });
      reason = null;
    } catch (error) {
      reason = messageOf(error);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  if (reason !== null && process.env.CI) {
    throw new Error(
      `the sandbox tests cannot run: ${reason}. CI must install bubblewrap (apt-get install bubblewrap)`,
    );
  }
  return reason ?? undefined;
}

/**
 * The pids of live processes one of whose arguments is exactly `argument` (Linux `/proc`), so a test
 * can find a process started inside a sandbox, whose pid it cannot know, by a unique argument.
 */
export function processesWithArgument(argument: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(argument))
        found.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return found;
}

/** The user a root test process's sandboxes run as by default (`nobody`). */
export const sandboxTestUser = { uid: 65534, gid: 65534 };

/**
 * Makes a test workspace the sandbox's to write when this process is root: everything under `path`
 * (symlinks themselves, not their targets) given to {@link sandboxTestUser}. As root a sandbox runs commands as the workspace's owner, never as root. Does
 * nothing for an unprivileged process, whose sandboxes run as itself.
 */
export function giveToSandboxUser(path: string): void {
  if (process.getuid?.() !== 0) return;
  const { uid, gid } = sandboxTestUser;
  const walk = (current: string) => {
    const stats = lstatSync(current);
    lchownSync(current, uid, gid);
    if (stats.isSymbolicLink() || !stats.isDirectory()) return;
    for (const entry of readdirSync(current)) walk(join(current, entry));
  };
  walk(path);
}
