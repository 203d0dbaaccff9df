import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { steppingClock } from '../chain/clock.js';
import { MemoryStore } from '../memory-store.js';
import { temporaryFiles } from '../testing/files.js';
import { verifyLedgerFile, verifyLedgerText } from './verify.js';

const file = temporaryFiles();

async function ledgerText(count: number): Promise<{ text: string; hashes: string[] }> {
  const store = new MemoryStore({ clock: steppingClock() });
  const hashes: string[] = [];
  for (let n = 0; n < count; n++)
    hashes.push(
      (await store.append({ runId: 'r', kind: 'oracle.spoke', actor: 'oracle', payload: { n } })).hash,
    );
  return { text: store.toJsonl(), hashes };
}

describe('verifyLedgerFile', () => {
  it('counts the records of a sound ledger and names its last seq and hash', async () => {
    const { text, hashes } = await ledgerText(4);
    const path = file('sound.jsonl');
    writeFileSync(path, text);
    expect(await verifyLedgerFile(path)).toEqual({ ok: true, count: 4, last: { seq: 3, hash: hashes[3] } });
  });

  it('accepts an empty ledger', async () => {
    expect(await verifyLedgerText('')).toEqual({ ok: true, count: 0, last: undefined });
  });

  it('with a kept head, accepts a ledger that grew since and catches one whose tail was cut', async () => {
    const { text, hashes } = await ledgerText(5);
    expect(await verifyLedgerText(text, { head: hashes[2] })).toMatchObject({ ok: true, count: 5 });
    const cut = `${text.split('\n').slice(0, 2).join('\n')}\n`;
    expect(await verifyLedgerText(cut, { head: hashes[4] })).toMatchObject({
      ok: false,
      seq: 2,
      reason: expect.stringMatching(
        /no record has the kept head hash .* ends at seq 1, so records were cut from its end/,
      ),
    });
  });

  it.each([
    ['inserted', (lines: string[]) => lines.splice(2, 0, lines[1]!), 2],
    ['deleted', (lines: string[]) => lines.splice(1, 1), 1],
    ['reordered', (lines: string[]) => lines.reverse(), 0],
    ['edited', (lines: string[]) => (lines[3] = lines[3]!.replace('"n":3', '"n":4')), 3],
  ])('names the first bad seq when a record is %s', async (_what, change, seq) => {
    const { text } = await ledgerText(5);
    const lines = text.trimEnd().split('\n');
    change(lines);
    const result = await verifyLedgerText(`${lines.join('\n')}\n`);
    expect(result).toMatchObject({ ok: false, seq, code: 'LEDGER_CORRUPT' });
  });

  it('names an unfinished last line as torn', async () => {
    const { text } = await ledgerText(2);
    expect(await verifyLedgerText(text.slice(0, -20))).toMatchObject({
      ok: false,
      seq: 1,
      count: 1,
      reason: expect.stringMatching(/has no newline: a write was cut short/),
    });
  });

  it('counts a whole last record that lacks only its newline', async () => {
    const { text } = await ledgerText(2);
    expect(await verifyLedgerText(text.slice(0, -1))).toMatchObject({ ok: true, count: 2 });
  });

  it('throws LEDGER_UNAVAILABLE for a file that cannot be read', async () => {
    await expect(verifyLedgerFile(file('missing.jsonl'))).rejects.toMatchObject({
      code: 'LEDGER_UNAVAILABLE',
      message: expect.stringMatching(/cannot read the ledger .*missing\.jsonl/),
    });
  });
});
