import { execFile } from 'node:child_process';
import { closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { emptyHead, sealEvent } from '../chain/chain.js';
import { steppingClock } from '../chain/clock.js';
import { MemoryStore } from '../memory-store.js';
import { temporaryFiles } from '../testing/files.js';
import { verifyLedgerText } from './verify.js';

const run = promisify(execFile);
const built = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'index.js');

describe('verify against single-byte corruption', () => {
  it('fails for every flipped byte of a written ledger, naming the record that holds the byte', async () => {
    const store = new MemoryStore({ clock: steppingClock() });
    await store.append({
      runId: 'r',
      kind: 'run.started',
      actor: 'system',
      payload: { seed: 'moss', n: 12 },
    });
    await store.append({
      runId: 'r',
      kind: 'tool.called',
      actor: 'teller',
      payload: { tool: 'oracle', p: [1.5, null] },
    });
    await store.append({ runId: 'r', kind: 'run.ended', actor: 'system', payload: { ok: true } });
    const bytes = Buffer.from(store.toJsonl());
    const lineOf: number[] = [];
    let line = 0;
    for (const byte of bytes) {
      lineOf.push(line);
      if (byte === 10) line++;
    }
    expect(await verifyLedgerText(bytes.toString())).toMatchObject({ ok: true, count: 3 });
    for (let at = 0; at < bytes.length; at++) {
      for (const flip of [0x01, 0x20, 0x80]) {
        const corrupt = Buffer.from(bytes);
        corrupt[at]! ^= flip;
        const result = await verifyLedgerText(corrupt.toString('utf8'));
        if (result.ok) throw new Error(`flipping byte ${at} with ${flip} went unnoticed`);
        // the bad record is the one holding the byte (a broken newline makes its own line the bad one)
        expect(result.seq, `byte ${at} flip ${flip}: ${result.reason}`).toBe(lineOf[at]);
      }
    }
  });
});

describe('verify in constant memory', () => {
  const file = temporaryFiles();

  it('verifies a ledger larger than the heap it is allowed, so it never holds the file', async () => {
    if (!existsSync(built)) throw new Error(`${built} is missing: build first`);
    const path = file('large.jsonl');
    const out = openSync(path, 'w');
    let head = emptyHead;
    const lines: string[] = [];
    for (let seq = 0; seq < 100_000; seq++) {
      const payload = { seq, text: 'moss and stone '.repeat(20) };
      const sealed = sealEvent(
        { runId: 'r', kind: 'oracle.spoke', actor: 'oracle', payload },
        head,
        '2026-01-01T00:00:00.000Z',
      );
      head = { seq: seq + 1, hash: sealed.event.hash };
      lines.push(sealed.line);
      if (lines.length === 5000) writeSync(out, `${lines.splice(0).join('\n')}\n`);
    }
    closeSync(out);
    expect(statSync(path).size).toBeGreaterThan(55 * 2 ** 20);
    const script =
      `const { verifyLedgerFile } = await import(${JSON.stringify(built)});` +
      `console.log(JSON.stringify(await verifyLedgerFile(${JSON.stringify(path)}, { workers: 0 })));`;
    const { stdout } = await run(process.execPath, [
      '--max-old-space-size=32',
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(JSON.parse(stdout)).toMatchObject({
      ok: true,
      count: 100_000,
      last: { seq: 99_999, hash: head.hash },
    });
  });
});
