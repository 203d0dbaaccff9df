import { temporaryFiles, writeSampleLedger } from '@toolgate/ledger/testing';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const file = temporaryFiles();

function io(options: { isTTY?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (text: string) => out.push(text), isTTY: options.isTTY ?? false },
      stderr: { write: (text: string) => err.push(text) },
      env: options.env ?? {},
    },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

describe('toolgate-ledger show', () => {
  it('colours its output on a terminal', async () => {
    const path = file('sample.jsonl');
    await writeSampleLedger(path);
    const terminal = io({ isTTY: true });
    expect(await main(['show', path], terminal.io)).toBe(0);
    expect(terminal.out()).toContain('\u001b[31mtool.returned\u001b[39m');
  });

  it('writes no colour when NO_COLOR is set, or when stdout is not a terminal', async () => {
    const path = file('sample.jsonl');
    await writeSampleLedger(path);
    for (const options of [{ isTTY: true, env: { NO_COLOR: '1' } }, { isTTY: false }]) {
      const output = io(options);
      expect(await main(['show', path], output.io)).toBe(0);
      expect(output.out()).not.toContain('\u001b[');
      expect(output.out()).toContain(
        '#2 2026-01-01T00:00:00.002Z t0 teller tool.returned oracle [c1] TOOL_FAILED: cracked',
      );
    }
  });

  it('prints usage and exits 2 on a bad option or a missing file argument', async () => {
    for (const argv of [['show'], ['verify', 'a', 'b'], ['frobnicate', 'x'], ['show', 'x', '--colour']]) {
      const output = io();
      expect(await main(argv, output.io)).toBe(2);
      expect(output.err()).toMatch(/usage: toolgate-ledger/);
    }
  });
});
