import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * True when a ledger location names a directory of chains: it ends with `/`. Every gateway started
 * on it writes a chain file of its own there, so any number of them (stdio and HTTP) can run from
 * one config at once.
 */
export function isLedgerDirectory(location: string): boolean {
  return location.endsWith('/');
}

/**
 * A new chain file in the ledger directory for this process, named so that names sort by start
 * time and never collide: `gateway-<UTC time>-<pid>-<random>.jsonl`. The directory is made when missing.
 */
export async function newChainFile(directory: string, now = new Date()): Promise<string> {
  await mkdir(directory, { recursive: true });
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return join(directory, `gateway-${stamp}-${process.pid}-${randomBytes(3).toString('hex')}.jsonl`);
}

/** The chain files of a ledger directory, oldest first (by name: start time, then pid). */
export async function chainFiles(directory: string): Promise<string[]> {
  const names = await readdir(directory);
  return names
    .filter((name) => name.startsWith('gateway-') && name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(directory, name));
}
