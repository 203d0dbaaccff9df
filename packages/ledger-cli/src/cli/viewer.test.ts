import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { temporaryFiles, writeSampleLedger } from '@toolgate/ledger/testing';
import { afterAll, describe, expect, it } from 'vitest';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'toolgate-ledger.js');
const file = temporaryFiles();
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('toolgate-ledger serve and export (the built bin)', () => {
  it('serve --checkpoint: refuses a missing key, a directory and a file that is not a checkpoint', async () => {
    const path = file('proved.jsonl');
    await writeSampleLedger(path);
    const noKey = await run('serve', path, '--checkpoint', path);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("--checkpoint needs the log's public key: --pub KEY.pub");
    const keys = file('log');
    expect((await run('keygen', 'example.com/agents', '--out', keys)).code).toBe(0);
    const notCheckpoint = await run('serve', path, '--checkpoint', path, '--pub', `${keys}.pub`);
    expect(notCheckpoint.code).toBe(2);
    expect(notCheckpoint.stderr).toContain(`${path} is not a signed checkpoint:`);
    const directory = await run('serve', dirname(path), '--checkpoint', path, '--pub', `${keys}.pub`);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toContain('--checkpoint takes one ledger FILE');
  });

  it('serve: prints a loopback URL, and stops with exit 0 on SIGINT', async () => {
    const path = file('ledger.jsonl');
    await writeSampleLedger(path);
    const child = spawn(process.execPath, [cli, 'serve', path], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += String(chunk);
        if (stdout.includes('\n')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });
    expect(stdout).toMatch(
      /^serving .*ledger\.jsonl read-only at http:\/\/127\.0\.0\.1:\d+\/ \(Ctrl-C stops\)\n$/,
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('serve and export: usage errors exit 2 naming the bad value', async () => {
    expect(await run('serve', 'x.jsonl', '--port', 'eighty')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--port must be a whole number from 0 to 65535, not "eighty"'),
    });
    expect(await run('serve')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"serve" needs a ledger FILE'),
    });
    expect(await run('export', 'x.jsonl')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"export" needs --html OUT.html'),
    });
    expect(await run('export', 'x.jsonl', '--html', 'a.html', 'extra')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unexpected arguments: extra'),
    });
  });

  it('serve --help and export --help show an example', async () => {
    expect(await run('serve', '--help')).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('example:'),
    });
    expect(await run('export', '--help')).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('example:'),
    });
  });

  it('export: refuses to write the page over the ledger itself', async () => {
    const path = file('ledger.jsonl');
    await writeSampleLedger(path);
    const before = readFileSync(path);
    const result = await run('export', path, '--html', path);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is the ledger itself');
    expect(readFileSync(path)).toEqual(before);
  });

  it('export: a tampered ledger is still written, with exit 1 naming the bad seq', async () => {
    const path = file('ledger.jsonl');
    await writeSampleLedger(path);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"seed":"moss"', '"seed":"mass"'));
    const out = file('page.html');
    const result = await run('export', path, '--html', out);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path}: bad record at seq 1: its hash does not match its content`);
    expect(readFileSync(out, 'utf8')).toContain('"state":"corrupt","seq":1');
  });

  it('export: a ledger that cannot be read is still written, with exit 3', async () => {
    const out = file('page.html');
    const result = await run('export', file('missing.jsonl'), '--html', out);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('missing.jsonl');
    expect(existsSync(out)).toBe(true);
    expect(readFileSync(out, 'utf8')).toContain('"state":"unreadable"');
  });
});
