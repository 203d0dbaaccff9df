import { writeFileSync } from 'node:fs';
import {
  deepLedger,
  ledgerWithReplacementCharacter,
  temporaryFiles,
  withFfForReplacement,
} from '@toolgate/ledger/testing';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const file = temporaryFiles();

async function verify(path: string): Promise<{ code: number; stderr: string }> {
  const err: string[] = [];
  const io = {
    stdout: { write: () => true, isTTY: false },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  };
  const code = await main(['verify', path], io);
  return { code, stderr: err.join('') };
}

describe('toolgate-ledger verify reads a ledger as bytes', () => {
  it('exits 1 naming the record whose EF BF BD became FF, and 0 for the untouched ledger', async () => {
    const sound = await ledgerWithReplacementCharacter(5, 3);
    const path = file('ff.jsonl');
    writeFileSync(path, withFfForReplacement(sound));
    const edited = await verify(path);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toMatch(/seq 3.*not valid UTF-8/);
    writeFileSync(path, sound);
    expect((await verify(path)).code).toBe(0);
  });

  it('exits 1, not 3, for a record nested 5,000 deep, and 0 for one as deep as allowed', async () => {
    const path = file('deep.jsonl');
    writeFileSync(path, await deepLedger(5000));
    const deep = await verify(path);
    expect(deep.code).toBe(1);
    expect(deep.stderr).toMatch(/seq 0.*nests deeper than 2048 levels/);
    writeFileSync(path, await deepLedger(2048 - 2));
    expect((await verify(path)).code).toBe(0);
  });
});
