import { temporaryFiles, writeSampleLedger } from '@toolgate/ledger/testing';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const file = temporaryFiles();

function io(isTTY: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => err.push(text), isTTY },
      // the line is drawn at once here, rather than after the second a real run waits
      env: { TOOLGATE_PROGRESS_AFTER_MS: '0' },
    },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

describe('toolgate-ledger verify progress', () => {
  it('on a terminal, shows a line while it verifies and clears it before the verdict', async () => {
    const path = file('sample.jsonl');
    await writeSampleLedger(path);
    const terminal = io(true);
    expect(await main(['verify', path], terminal.io)).toBe(0);
    expect(terminal.err()).toMatch(/^\r\u001b\[Kverifying .*sample\.jsonl \(\d+ KiB\): 0 s/);
    expect(terminal.err().endsWith('\r\u001b[K')).toBe(true);
    expect(terminal.out()).toContain('ok, ');
  });

  it('writes nothing of it when stderr is not a terminal', async () => {
    const path = file('piped.jsonl');
    await writeSampleLedger(path);
    const piped = io(false);
    expect(await main(['verify', path], piped.io)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(piped.err()).toBe('');
  });
});
