import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { defaultConfigDir } from '../src/config.js';

// Every directory a test file makes is removed when that file's tests end (each test file loads
// this module afresh, so the hook belongs to the file that imported it).
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temporary directory, removed when the test file that asked for it ends. */
export async function scratchDir(prefix = 'grove-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A copy of the demo's config with one file replaced. */
export async function configWith(file: string, text: string): Promise<string> {
  const dir = await scratchDir('grove-config-');
  await cp(defaultConfigDir, dir, { recursive: true });
  await mkdir(join(dir, file, '..'), { recursive: true });
  await writeFile(join(dir, file), text);
  return dir;
}

/** Reads a JSONL ledger's events. */
export function eventsOf(
  text: string,
): { kind: string; actor: string; turn: number; payload: Record<string, unknown> }[] {
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}
