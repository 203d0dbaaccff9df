import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '../store.js';
import { temporaryFiles } from '../testing/files.js';
import { verifyLedgerFile } from '../verify/verify.js';
import { FileStore } from './file-store.js';

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, '..', 'test-support', 'appender-child.mjs');
const file = temporaryFiles();

beforeAll(() => {
  if (!existsSync(join(here, '..', '..', 'dist', 'index.js')))
    throw new Error('build first: the writer child runs dist/');
});

function startWriter(path: string, mode: 'append' | 'hold') {
  const process_ = spawn(process.execPath, [child, path, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  process_.stdout.on('data', (chunk) => (stdout += chunk));
  process_.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => process_.on('exit', (code) => resolve(code)));
  const until = (test: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (test() ? resolve() : undefined);
      process_.stdout.on('data', check);
      exited.then(() => (test() ? resolve() : reject(new Error(`writer exited: ${stderr}`))));
      check();
    });
  return { process: process_, exited, until, stdout: () => stdout, stderr: () => stderr };
}

function acked(stdout: string): number[] {
  return stdout
    .split('\n')
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}

describe('FileStore under faults', () => {
  it('loses no resolved append in always mode when its writer is SIGKILLed at random moments, and always reopens sound', async () => {
    const path = file('crash.jsonl');
    const resolved = new Set<number>();
    let recoveredTorn = 0;
    for (let round = 0; round < 24; round++) {
      const writer = startWriter(path, 'append');
      await writer.until(() => acked(writer.stdout()).length > 0);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 30)));
      writer.process.kill('SIGKILL');
      await writer.exited;
      for (const n of acked(writer.stdout())) resolved.add(n);

      const store = await FileStore.open(path); // takes over the dead writer's lock
      if (store.recovered) recoveredTorn++;
      const stored = new Set(
        (await readAll(store.read())).map((event) => (event.payload as { n: number }).n),
      );
      await store.close();
      const missing = [...resolved].filter((n) => !stored.has(n));
      expect(missing, `round ${round}: resolved appends missing after SIGKILL`).toEqual([]);
      expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: stored.size });
    }
    expect(resolved.size).toBeGreaterThan(24);
    console.log(
      `SIGKILL test: ${resolved.size} resolved appends kept over 24 kills; ${recoveredTorn} torn tails cut`,
    );
  }, 180_000); // 24 child processes, each started and killed: seconds on a loaded 2-core machine

  it('refuses a second process that opens the ledger for writing while the first holds it', async () => {
    const path = file('two-writers.jsonl');
    const first = startWriter(path, 'hold');
    await first.until(() => first.stdout().startsWith('open'));
    const second = startWriter(path, 'hold');
    expect(await second.exited).toBe(3);
    expect(second.stderr()).toMatch(
      new RegExp(
        `LEDGER_UNAVAILABLE: the ledger .* is already open for writing by process ${first.process.pid};`,
      ),
    );
    await expect(FileStore.open(path)).rejects.toMatchObject({ code: 'LEDGER_UNAVAILABLE' });
    first.process.kill('SIGKILL');
    await first.exited;
    const after = await FileStore.open(path); // the dead holder's lock is stale now
    await after.close();
  });
});
