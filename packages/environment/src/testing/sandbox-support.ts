import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageOf } from '@toolgate/core/internal';
import { SandboxEnvironment } from '../sandbox-environment.js';

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
