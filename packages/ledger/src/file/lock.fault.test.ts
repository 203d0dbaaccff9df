import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, linkSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryFiles } from '../testing/files.js';
import { verifyLedgerFile } from '../verify/verify.js';
import { FileStore } from './file-store.js';

const here = dirname(fileURLToPath(import.meta.url));
const racerScript = join(here, '..', 'test-support', 'lock-racer.mjs');
const file = temporaryFiles();

/** A long-lived contender process: send it a command, await its next answer line. */
class Racer {
  readonly process: ChildProcessWithoutNullStreams;
  #lines: string[] = [];
  #waiting: ((line: string) => void)[] = [];
  #buffer = '';

  constructor() {
    this.process = spawn(process.execPath, [racerScript], { stdio: 'pipe' });
    this.process.stdout.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString();
      let newline = this.#buffer.indexOf('\n');
      while (newline >= 0) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        const waiter = this.#waiting.shift();
        if (waiter) waiter(line);
        else this.#lines.push(line);
        newline = this.#buffer.indexOf('\n');
      }
    });
  }

  send(command: string): Promise<string> {
    const answer = new Promise<string>((resolve, reject) => {
      const early = this.#lines.shift();
      if (early !== undefined) return resolve(early);
      const timer = setTimeout(
        () => reject(new Error(`racer ${this.process.pid}: no answer to ${command}`)),
        60_000,
      );
      this.#waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
    this.process.stdin.write(`${command}\n`);
    return answer;
  }
}

function startHolder(path: string) {
  const holder = new Racer();
  return { holder, opened: holder.send(`open ${path}`) };
}

const racers: Racer[] = [];

beforeAll(() => {
  if (!existsSync(join(here, '..', '..', 'dist', 'index.js')))
    throw new Error('build first: the racer children run dist/');
});

afterAll(() => {
  for (const racer of racers) racer.process.kill('SIGKILL');
});

describe('the writer lock under attack', () => {
  it('never lets two of six processes racing for a ledger with a stale lock file both write (30 trials)', async () => {
    for (let index = 0; index < 6; index++) racers.push(new Racer());
    let trials = 0;
    for (let trial = 0; trial < 30; trial++) {
      const path = file(`race-${trial}.jsonl`);
      // What a writer that died without closing leaves: a lock file naming a process that is gone.
      writeFileSync(`${path}.lock`, '999999999\n');
      const answers = await Promise.all(racers.map((racer) => racer.send(`open ${path}`)));
      const winners = racers.filter((_, index) => answers[index]!.startsWith('won '));
      expect(winners, `trial ${trial}: ${answers.join(', ')}`).toHaveLength(1);
      expect(answers.filter((answer) => answer === `lost ${path} LEDGER_UNAVAILABLE`)).toHaveLength(5);
      expect(readFileSync(`${path}.lock`, 'utf8')).toBe(`${winners[0]!.process.pid}\n`);
      expect(await winners[0]!.send('close')).toBe('closed');
      expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 1 });
      trials++;
    }
    expect(trials).toBe(30);
  }, 240_000); // 180 opens over six processes on a loaded 2-core machine; the bound only guards a hang

  it('refuses a symlink alias and a hard link alias while the real path is held by another process', async () => {
    const path = file('real.jsonl');
    const { holder, opened } = startHolder(path);
    racers.push(holder);
    expect(await opened).toBe(`won ${path}`);
    const symlink = file('alias.jsonl');
    symlinkSync(path, symlink);
    await expect(FileStore.open(symlink)).rejects.toMatchObject({
      code: 'LEDGER_UNAVAILABLE',
      message: expect.stringContaining(
        `the ledger ${path} (the real path of ${symlink}) is already open for writing by process ${holder.process.pid};`,
      ),
    });
    const hardLink = file('hard-alias.jsonl');
    linkSync(path, hardLink);
    await expect(FileStore.open(hardLink)).rejects.toMatchObject({ code: 'LEDGER_UNAVAILABLE' });
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 1 });
  }, 60_000);

  it('still refuses a second writer when the lock file was deleted by hand while the first holds the ledger', async () => {
    const path = file('deleted-lock.jsonl');
    const { holder, opened } = startHolder(path);
    racers.push(holder);
    expect(await opened).toBe(`won ${path}`);
    unlinkSync(`${path}.lock`);
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'LEDGER_UNAVAILABLE',
      message: expect.stringMatching(/already open for writing by another writer;/),
    });
  }, 60_000);

  it('reopens a ledger whose lock file names PID 1 from an earlier start (a restarted container writer)', async () => {
    const path = file('pid-one.jsonl');
    const first = await FileStore.open(path);
    await first.append({ runId: 'r', kind: 'run.started', actor: 'system' });
    await first.close();
    // PID 1 is running here (as it always is), just not as the writer that left this lock file.
    writeFileSync(`${path}.lock`, '1\n');
    const reopened = await FileStore.open(path);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    expect((await reopened.append({ runId: 'r', kind: 'run.ended', actor: 'system' })).seq).toBe(1);
    await reopened.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
