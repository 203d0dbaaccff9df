import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StdioServerConfig } from '@toolgate/mcp-client';
import { toolgateMcpPath } from '../from-env.js';

// Servers and process checks for the tests of the demo's MCP gate (the same helpers as
// mcp-client's own test fixtures, which the demo cannot reach into).

const here = dirname(fileURLToPath(import.meta.url));

/** The built toolgate-mcp serving `tools` over stdio; fails with a clear message when it is not built. */
export function toolgateMcp(tools = 'oracle'): StdioServerConfig {
  return { name: 'toolgate-mcp', command: process.execPath, args: [toolgateMcpPath(), '--tools', tools] };
}

/** A fixture server script beside this file, run by this node. */
export function fixture(script: string): StdioServerConfig {
  return { name: script.replace(/\.mjs$/, ''), command: process.execPath, args: [join(here, script)] };
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Waits (polling, bounded) until `pid` is gone; true when it went. */
export async function gone(pid: number, withinMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !alive(pid);
}

/** The pids of this process's live child processes (Linux: from /proc). */
function childPids(): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && fields[0] !== 'Z') children.push(Number(entry));
    } catch {
      // the process went away while we looked
    }
  }
  return children;
}

/** Waits (polling, bounded) until this process has no live children; their pids if some remain. */
export async function noChildren(withinMs = 30_000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (childPids().length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return childPids();
}
