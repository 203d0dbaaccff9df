import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, scratchDir } from '../test/fixtures.js';

const run = promisify(execFile);
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const require = createRequire(import.meta.url);
const ledgerCli = join(dirname(require.resolve('@toolgate/ledger-cli/package.json')), 'dist', 'cli.js');
const mcpCli = join(dirname(require.resolve('@toolgate/mcp-server/package.json')), 'dist', 'cli.js');

async function demo(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) {
  return run(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH, ...env },
    ...(cwd ? { cwd } : {}),
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('the oracle-grove command line, given bad input', () => {
  beforeAll(() => {
    if (![cli, ledgerCli, mcpCli].every(existsSync)) {
      throw new Error('the built CLIs are missing: run `pnpm build` (pnpm test builds first)');
    }
  });

  it('a closed stdout (`| head`) ends the run cleanly: exit 0, no stack trace, the ledger finished and its lock released', async () => {
    const dir = await scratchDir();
    const ledger = join(dir, 'piped.jsonl');
    // 1000 turns write far more than a pipe holds, so the run is still going when the reader quits.
    const child = spawn(process.execPath, [cli, '--turns', '1000', '--ledger', ledger], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const first = await new Promise<string>((resolve) =>
      child.stdout.once('data', (chunk: Buffer) => {
        child.stdout.pause(); // read no more: the child blocks on a full pipe until it is closed
        resolve(chunk.toString('utf8'));
      }),
    );
    expect(first).toContain('run.started');
    child.stdout.destroy(); // what `head` does once it has its lines
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(await readdir(dir)).toEqual(['piped.jsonl']); // no piped.jsonl.lock left behind
    const verified = await run(process.execPath, [ledgerCli, 'verify', ledger]);
    expect(verified.stdout).toContain(': ok, ');
    const events = eventsOf(await readFile(ledger, 'utf8'));
    expect(events.at(-1)).toMatchObject({
      kind: 'run.finished',
      payload: { reason: 'stopped early: its output was closed' },
    });
    expect(events.filter((event) => event.kind === 'run.finished')).toHaveLength(1);
    expect(events.at(-1)!.turn).toBeLessThan(1000);
  });

  it('--turns: echoes the value typed (a word, a negative number in either form, zero) and says what is expected', async () => {
    for (const args of [
      ['--turns', 'abc'],
      ['--turns', '-1'],
      ['--turns=-1'],
      ['--turns', '0'],
      ['--turns', '2.5'],
    ]) {
      const typed = args.length === 2 ? args[1]! : args[0]!.split('=')[1]!;
      const result = await demo(args);
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `oracle-grove: --turns must be a whole number of at least 1, not ${JSON.stringify(typed)}\n`,
      });
    }
    const missing = await demo(['--turns', '--json']);
    expect(missing).toMatchObject({
      code: 2,
      stderr: 'oracle-grove: --turns needs a value, but the next argument is the option --json; see --help\n',
    });
  });

  it('--replay refuses --seed, --turns and --trespass (they come from the recording), writing nothing', async () => {
    const dir = await scratchDir();
    const recorded = join(dir, 'recorded.jsonl');
    expect((await demo(['--turns', '1', '--ledger', recorded])).code).toBe(0);
    const result = await demo([
      '--replay',
      recorded,
      '--seed',
      'fern',
      '--turns',
      '2',
      '--ledger',
      join(dir, 'replay.jsonl'),
    ]);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'oracle-grove: --replay takes the seed, turns and cast from the recording; drop --seed, --turns\n',
    });
    const trespass = await demo(['--replay', recorded, '--trespass', '--ledger', join(dir, 'replay.jsonl')]);
    expect(trespass.stderr).toBe(
      'oracle-grove: --replay takes the seed, turns and cast from the recording; drop --trespass\n',
    );
    expect(await readdir(dir)).toEqual(['recorded.jsonl']);
  });

  it('--ledger in a directory that does not exist is refused, and no directory is created', async () => {
    const dir = await scratchDir();
    const ledger = join(dir, 'missing', 'deeper', 'x.jsonl');
    const result = await demo(['--ledger', ledger]);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `oracle-grove: --ledger ${ledger}: the directory ${join(dir, 'missing', 'deeper')} does not exist; create it first, or pick another path\n`,
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('MCP_ORACLE takes true/yes in any case, and refuses another value listing the accepted ones', async () => {
    const dir = await scratchDir();
    const over = await demo(['--turns', '1', '--ledger', join(dir, 'mcp.jsonl')], { MCP_ORACLE: 'True' });
    expect(over.code).toBe(0);
    expect(over.stdout).toContain('tools  mcp');
    const off = await demo(['--turns', '1', '--ledger', join(dir, 'off.jsonl')], { MCP_ORACLE: 'no' });
    expect(off.stdout).toContain('tools  in-process');
    const bad = await demo(['--turns', '1', '--ledger', join(dir, 'bad.jsonl')], { MCP_ORACLE: 'maybe' });
    expect(bad).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'oracle-grove: MCP_ORACLE="maybe" is not understood; use 1, true or yes to serve the oracle over MCP, ' +
        'or 0, false, no or empty for in-process (any case)\n',
    });
  });

  it('an MCP server that fails to start ends the run with exit 2 and promises no reconnect', async () => {
    const dir = await scratchDir();
    const crash = join(dir, 'crash.mjs');
    await writeFile(crash, "process.stderr.write('no config here\\n'); process.exit(1);\n");
    const ledger = join(dir, 'never.jsonl');
    const result = await demo(['--ledger', ledger], { MCP_SERVERS: `'${process.execPath}' '${crash}'` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^oracle-grove: MCP server "[^"]+" failed during starting it: .*no config here/s,
    );
    expect(result.stderr).not.toContain('reconnect');
    expect(result.stderr).not.toContain('next call');
    expect(existsSync(ledger)).toBe(false);
  });

  it('a granted tool that no attached server serves is UNKNOWN_TOOL naming the servers and what they serve', async () => {
    const dir = await scratchDir();
    const servers = `'${process.execPath}' '${mcpCli}' --tools read_file --root '${dir}'`;
    const result = await demo(['--turns', '1', '--ledger', join(dir, 'run.jsonl')], { MCP_SERVERS: servers });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'fortune-teller ← oracle: UNKNOWN_TOOL: no tool named "oracle" is registered in-process or served by ' +
        'the MCP servers attached ("node cli.js": read_file); register it, or attach the server that provides it',
    );
    expect(result.stdout).not.toContain('manifest');
  });
});
