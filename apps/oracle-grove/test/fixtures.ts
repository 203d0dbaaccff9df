import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfigDir } from '../src/config.js';

/** A fresh temporary directory. */
export function scratchDir(prefix = 'grove-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
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
