import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliPath } from '@toolgate/mcp-server/testing';
import { afterAll, afterEach } from 'vitest';
import { MCPResolver } from '../resolver.js';
import type { StdioServerConfig } from '../server-config.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The built toolgate-mcp serving `tools` over stdio; fails with a clear message when it is not built. */
export function toolgateMcp(tools = 'oracle', extra: string[] = []): StdioServerConfig {
  return {
    name: 'toolgate-mcp',
    command: process.execPath,
    args: [cliPath(), '--tools', tools, ...extra],
  };
}

/** A fixture server script under testing-fixtures/, run by this node. */
export function fixture(script: string, options: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return {
    name: script.replace(/\.mjs$/, ''),
    command: process.execPath,
    args: [join(here, script)],
    ...options,
  };
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
export function childPids(): number[] {
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

/** `MCPResolver.connect` for a test file: every resolver it opens is closed after each test. */
export function connectClosingAfterEach(): typeof MCPResolver.connect {
  const open: MCPResolver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((resolver) => resolver.close()));
  });
  return async (...args) => {
    const resolver = await MCPResolver.connect(...args);
    open.push(resolver);
    return resolver;
  };
}

/** The hostile `shifty.mjs` server, listing and answering what `config` says (see the script). */
export function shifty(
  name: string,
  config: Record<string, unknown>,
  options: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return fixture('shifty.mjs', { name, args: [join(here, 'shifty.mjs'), configFile(config)], ...options });
}

// The config folders a test file made, removed when its tests end (each test file loads this anew).
const configDirs: string[] = [];
afterAll(() => {
  for (const dir of configDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Writes a shifty config to a fresh temporary file and returns its path (for the control tool's
 * `file`); the file is removed when the test file ends.
 */
export function configFile(config: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'shifty-'));
  configDirs.push(dir);
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}
