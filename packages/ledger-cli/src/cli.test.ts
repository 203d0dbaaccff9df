import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, steppingClock } from '@toolgate/ledger';
import { temporaryFiles, writeSampleLedger } from '@toolgate/ledger/testing';
import { beforeAll, describe, expect, it } from 'vitest';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const file = temporaryFiles();

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { env: { ...process.env, NO_COLOR: '' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

beforeAll(() => {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: build first (pnpm --filter @toolgate/ledger... build)`);
});

describe('toolgate-ledger (the built bin)', () => {
  it('verify: exits 0 with the count of a sound ledger', async () => {
    const path = file('sound.jsonl');
    const events = await writeSampleLedger(path);
    const result = await run('verify', path);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`${path}: ok, 4 records verified (last seq 3, hash ${events[3]!.hash})\n`);
  });

  it('verify: exits 1 naming the first bad seq and why when a record was edited', async () => {
    const path = file('edited.jsonl');
    await writeSampleLedger(path);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"seed":"moss"', '"seed":"mass"'));
    const result = await run('verify', path);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `${path}: bad record at seq 1: its hash does not match its content: the record was edited after it was written\n`,
    );
  });

  it('head, then verify --head: catches a tail cut off after the head was kept', async () => {
    const path = file('cut.jsonl');
    const events = await writeSampleLedger(path);
    const head = await run('head', path);
    expect(head).toMatchObject({ code: 0, stdout: `3 ${events[3]!.hash}\n` });
    const kept = head.stdout.trim().split(' ')[1]!;
    expect((await run('verify', path, '--head', kept)).code).toBe(0);
    writeFileSync(path, `${readFileSync(path, 'utf8').split('\n').slice(0, 3).join('\n')}\n`);
    expect((await run('verify', path)).code).toBe(0); // the cut ledger is a sound chain on its own
    const caught = await run('verify', path, '--head', kept);
    expect(caught.code).toBe(1);
    expect(caught.stderr).toMatch(/bad record at seq 3: no record has the kept head hash/);
  });

  it('verify --head: refuses a value that is not a head (exit 2), naming it, before reading the ledger', async () => {
    const path = file('head-typo.jsonl');
    await writeSampleLedger(path);
    for (const head of ['abc', '-1', `3 ${'a'.repeat(64)}`]) {
      const result = await run('verify', path, '--head', head);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe(
        `toolgate-ledger: --head ${JSON.stringify(head)} is not a ledger head: ` +
          'give the 64-hex-digit hash that `toolgate-ledger head FILE` printed after the seq\n',
      );
    }
  });

  it('an empty ledger: verify and head both exit 0 and say it is empty; its genesis head verifies any ledger', async () => {
    const empty = file('empty.jsonl');
    writeFileSync(empty, '');
    const verified = await run('verify', empty);
    expect(verified).toMatchObject({
      code: 0,
      stdout: `${empty}: ok, 0 records verified: the ledger is empty (its head is the genesis hash, 64 zeros)\n`,
    });
    const head = await run('head', empty);
    expect(head).toMatchObject({
      code: 0,
      stdout: `-1 ${'0'.repeat(64)}\n`,
      stderr: `${empty}: the ledger is empty; its head is the genesis hash every ledger starts from\n`,
    });
    const kept = head.stdout.trim().split(' ')[1]!;
    expect((await run('verify', empty, '--head', kept)).code).toBe(0);
    const grown = file('grown.jsonl');
    await writeSampleLedger(grown);
    expect((await run('verify', grown, '--head', kept)).code).toBe(0);
  });

  it('--workers -1: echoes the value and says what is expected, instead of "argument is ambiguous"', async () => {
    const path = file('workers.jsonl');
    await writeSampleLedger(path);
    const result = await run('verify', path, '--workers', '-1');
    expect(result).toMatchObject({
      code: 2,
      stderr: 'toolgate-ledger: --workers must be a whole number from 0 to 64, not "-1"\n',
    });
    const missing = await run('verify', path, '--head', '--workers', '2');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^toolgate-ledger: --head needs a value, but the next argument is the option --workers\n/,
    );
  });

  it('exits 3 for a ledger of a newer schema version and for a missing file', async () => {
    const path = file('newer.jsonl');
    await writeSampleLedger(path);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"schemaVersion":1', '"schemaVersion":2'));
    const newer = await run('verify', path);
    expect(newer.code).toBe(3);
    expect(newer.stderr).toMatch(/schema version 2, newer than 1.*upgrade @toolgate\/ledger/);
    const missing = await run('show', file('missing.jsonl'));
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/cannot read the ledger .*missing\.jsonl/);
  });

  it('show: --json prints the stored events, filtered by --run and --kind', async () => {
    const path = file('show.jsonl');
    const events = await writeSampleLedger(path);
    const all = await run('show', path, '--json');
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(events);
    const runB = await run('show', path, '--json', '--run', 'b');
    expect(
      runB.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).seq),
    ).toEqual([3]);
    const calls = await run('show', path, '--kind', 'tool.called');
    expect(calls.stdout).toBe(
      '#1 2026-01-01T00:00:00.001Z t0 teller tool.called oracle [c1] {"seed":"moss"}\n',
    );
  });

  it('show --follow: prints records another process appends while it runs', async () => {
    const path = file('follow.jsonl');
    const store = await FileStore.open(path);
    await store.append({ runId: 'r', kind: 'run.started', actor: 'system' });
    const child: ChildProcess = spawn(process.execPath, [cli, 'show', path, '--follow', '--json']);
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    const seen = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (output.split('\n').filter(Boolean).length >= count) resolve();
          else setTimeout(check, 10);
        };
        check();
      });
    await seen(1);
    await store.append({ runId: 'r', kind: 'oracle.spoke', actor: 'oracle', payload: { omen: 'rain' } });
    await seen(2);
    child.kill('SIGTERM');
    await store.close();
    expect(
      output
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).kind),
    ).toEqual(['run.started', 'oracle.spoke']);
  });

  it('verify: reads a ledger larger than 8 MiB to the end, and catches an edit far into it', async () => {
    // A regression guard: a verify path that stopped early on large files once exited 0 silently.
    const path = file('large.jsonl');
    const store = await FileStore.open(path, { durability: 'none', clock: steppingClock() });
    const filler = 'moss '.repeat(200);
    const count = 10_000;
    for (let n = 0; n < count; n++) {
      await store.append({
        runId: 'big',
        kind: 'world.observed',
        actor: 'whisperer',
        payload: { n, text: filler },
      });
    }
    await store.close();
    expect(readFileSync(path).length).toBeGreaterThan(8 * 2 ** 20);
    for (const workers of ['0', '2']) {
      const sound = await run('verify', path, '--workers', workers);
      expect(sound.code).toBe(0);
      expect(sound.stdout).toMatch(new RegExp(`ok, ${count} records verified \\(last seq ${count - 1},`));
    }
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[9_500] = lines[9_500]!.replace('"n":9500', '"n":9501');
    writeFileSync(path, lines.join('\n'));
    for (const workers of ['0', '2']) {
      const edited = await run('verify', path, '--workers', workers);
      expect(edited.code).toBe(1);
      expect(edited.stderr).toMatch(/bad record at seq 9500: its hash does not match its content/);
    }
    expect((await run('verify', path, '--workers', 'many')).code).toBe(2);
  }, 180_000); // 10,000 records written, then three CLI processes over them
});
