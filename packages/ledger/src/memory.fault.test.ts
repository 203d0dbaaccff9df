import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { temporaryFiles } from './testing/files.js';

const here = dirname(fileURLToPath(import.meta.url));
const built = join(here, '..', 'dist', 'index.js');
const file = temporaryFiles();

describe('a file store in flat memory', () => {
  it('retains no heap per recorded call: 50,000 calls through LedgerRecorder into a FileStore', async () => {
    if (!existsSync(built)) throw new Error(`${built} is missing: build first`);
    const calls = 50_000;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', join(here, 'test-support', 'record-calls.mjs'), file('calls.jsonl'), String(calls)],
      { timeout: 240_000 },
    );
    const { perCall, events } = JSON.parse(stdout) as { perCall: number; events: number };
    expect(events).toBe((5_000 + calls) * 3);
    // Before the caches were bounded it held 499 bytes a call (ids and offsets of every record);
    // a bounded cache fills in the warm-up and then holds steady. 50 bytes a call is 2.5 MB of slack.
    expect(perCall).toBeLessThan(50);
  }, 300_000);
});
