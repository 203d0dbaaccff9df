import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../test/fixtures.js';

const run = promisify(execFile);
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const require = createRequire(import.meta.url);
const ledgerCli = join(dirname(require.resolve('@toolgate/ledger-cli/package.json')), 'dist', 'cli.js');

async function demo(args: string[], env: NodeJS.ProcessEnv = {}) {
  return run(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('the oracle-grove command line', () => {
  beforeAll(() => {
    if (!existsSync(cli) || !existsSync(ledgerCli)) {
      throw new Error('the built CLIs are missing: run `pnpm build` (pnpm test builds first)');
    }
  });

  it('prints the story, one line per event, and a summary; toolgate-ledger verify accepts the ledger', async () => {
    const dir = await scratchDir();
    const ledger = join(dir, 'story.jsonl');
    const { code, stdout } = await demo(['--turns', '2', '--trespass', '--ledger', ledger]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\[turn 1\] tool\.returned\s+trespasser ← oracle: CAPABILITY_VIOLATION/);
    expect(stdout).toMatch(/\[turn 2\] oracle\.spoke\s+fortune-teller: "/);
    expect(stdout).toMatch(/2 turns · 20 events · 4 tool calls · 2 refusals · 2 failed turns/);
    expect(stdout).not.toContain('\u001b['); // no colour when stdout is not a TTY
    const verified = await run(process.execPath, [ledgerCli, 'verify', ledger]);
    expect(verified.stdout).toMatch(/\b20\b/);
  });

  it('replays a ledger and says it is byte-identical', async () => {
    const dir = await scratchDir();
    const ledger = join(dir, 'story.jsonl');
    await demo(['--turns', '2', '--ledger', ledger]);
    const replay = await demo(['--replay', ledger, '--ledger', join(dir, 'replay.jsonl')]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('tools  replay');
    expect(replay.stdout).toContain('replay byte-identical to');
  });

  it('prints one JSON event per line with --json', async () => {
    const dir = await scratchDir();
    const { stdout } = await demo(['--turns', '1', '--json', '--ledger', join(dir, 'j.jsonl')]);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ seq: 0, kind: 'run.started' });
    expect(events.at(-1)).toMatchObject({ kind: 'run.finished' });
  });

  it('exits 2 with a clear message on a bad option', async () => {
    const bad = await demo(['--turns', 'three']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('oracle-grove: --turns must be a whole number of at least 1, not "three"\n');
    const unknown = await demo(['--sede', 'moss']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--sede'");
  });
});
