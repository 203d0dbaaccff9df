import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { temporaryFiles } from './testing/files.js';

const here = dirname(fileURLToPath(import.meta.url));
const built = [
  join(here, '..', 'dist', 'index.js'),
  join(dirname(createRequire(import.meta.url).resolve('@toolgate/core/package.json')), 'dist', 'index.js'),
];
const file = temporaryFiles();

describe('a gate recording to a file store in flat memory', () => {
  it('retains no heap per call: 50,000 calls through a ToolGate, its policy and a LedgerRecorder into a FileStore', async () => {
    for (const path of built) if (!existsSync(path)) throw new Error(`${path} is missing: build first`);
    const calls = 50_000;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', join(here, 'test-support', 'gate-calls.mjs'), file('calls.jsonl'), String(calls)],
      { timeout: 400_000 },
    );
    const { perCall, events } = JSON.parse(stdout) as { perCall: number; events: number };
    expect(events).toBe((5_000 + calls) * 3);
    // A call's records, context, signal watcher and authority must all be let go: anything kept per
    // call (an id, a closure, a listener) shows as tens to hundreds of bytes a call here.
    expect(perCall).toBeLessThan(50);
  }, 500_000);
});
