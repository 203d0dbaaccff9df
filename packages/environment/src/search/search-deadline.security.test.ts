import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEnvironment } from '../local-environment.js';
import { MemoryEnvironment } from '../memory/memory-environment.js';

// Forty `a`s before a `!` make these patterns backtrack for days on any machine, so a TIMEOUT can
// only come from the deadline.
const runaway = `${'a'.repeat(40)}!`;
let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-deadline-')));
  writeFileSync(join(root, 'notes.txt'), `moss\n${runaway}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Starts `count` search threads and leaves them idle, so the searches after it run on a started
 * thread: a deadline counts a cold thread's start-up, which takes seconds on a loaded machine.
 */
async function warmThreads(count: number): Promise<void> {
  const warm = new MemoryEnvironment({ files: { 'notes.txt': 'moss\n' }, searchTimeoutMs: 60_000 });
  await Promise.all(Array.from({ length: count }, () => warm.search('moss')));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a search past its deadline', () => {
  it('kills ripgrep and fails with TIMEOUT naming the pattern and the deadline', async () => {
    const pidFile = join(root, '..', `${root.split('/').pop()}-rg.pid`);
    const hanging = join(root, '..', `${root.split('/').pop()}-rg.sh`);
    writeFileSync(hanging, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 600\n`);
    chmodSync(hanging, 0o755);
    try {
      const environment = new LocalEnvironment({ root, ripgrepPath: hanging, searchTimeoutMs: 1500 });
      const error = await environment.search('moss').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'TIMEOUT' });
      expect((error as Error).message).toMatch(/pattern "moss" .* deadline of 1500 ms \(ripgrep engine\)/);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(pid).toBeGreaterThan(0);
      expect(isAlive(pid)).toBe(false);
    } finally {
      rmSync(hanging, { force: true });
      rmSync(pidFile, { force: true });
    }
  });

  it('terminates the JavaScript thread, and the next search on a fresh thread answers', async () => {
    await warmThreads(1);
    const environment = new LocalEnvironment({ root, search: 'javascript', searchTimeoutMs: 1500 });
    await expect(environment.search('(a+)+$')).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/pattern "\(a\+\)\+\$" .* deadline of 1500 ms \(JavaScript engine\)/),
    });
    // a fresh thread's start-up counts against the deadline: give this one time to start
    const patient = new LocalEnvironment({ root, search: 'javascript', searchTimeoutMs: 60_000 });
    const after = await patient.search('^moss$');
    expect(after).toEqual({
      matches: [{ path: 'notes.txt', line: 1, text: 'moss' }],
      totalMatches: 1,
      engine: 'javascript',
    });
  });

  it('does not hold up another search started while it runs', async () => {
    // Two searches at once leave two started threads idle, so neither search below waits for a start.
    await warmThreads(2);
    const environment = new LocalEnvironment({ root, search: 'javascript', searchTimeoutMs: 5000 });
    let runawayEnded = false;
    const runawaySearch = environment.search('(a|a)+\\1$').finally(() => {
      runawayEnded = true;
    });
    const other = await environment.search('^moss$');
    expect(runawayEnded).toBe(false);
    expect(other.totalMatches).toBe(1);
    await expect(runawaySearch).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('stops a MemoryEnvironment search the same way', async () => {
    await warmThreads(1);
    const environment = new MemoryEnvironment({ files: { 'notes.txt': runaway }, searchTimeoutMs: 1500 });
    await expect(environment.search('(?=(a+)+$)')).rejects.toMatchObject({ code: 'TIMEOUT' });
    const patient = new MemoryEnvironment({ files: { 'notes.txt': runaway }, searchTimeoutMs: 60_000 });
    expect((await patient.search('a!$')).totalMatches).toBe(1);
  });

  it('keeps lookaround and backreferences working', async () => {
    const environment = new MemoryEnvironment({ files: { 'a.txt': 'x foo\nfoofoo\nfoo\n' } });
    expect((await environment.search('(?<=x )foo')).matches.map((match) => match.line)).toEqual([1]);
    expect((await environment.search('(foo)\\1')).matches.map((match) => match.line)).toEqual([2]);
  });
});

describe("a search under its caller's time", () => {
  it('ends at the time its caller asks when the environment sets none (no default of its own)', async () => {
    await warmThreads(2);
    const environment = new LocalEnvironment({ root, search: 'javascript' });
    await expect(environment.search('(a+)+$', { timeoutMs: 1200 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/deadline of 1200 ms \(JavaScript engine\)/),
    });
    const memory = new MemoryEnvironment({ files: { 'notes.txt': runaway } });
    await expect(memory.search('(?=(a+)+$)', { timeoutMs: 1200 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining('deadline of 1200 ms'),
    });
  });

  it("keeps within the environment's own searchTimeoutMs when the caller has more time", async () => {
    await warmThreads(1);
    const environment = new LocalEnvironment({ root, search: 'javascript', searchTimeoutMs: 1200 });
    await expect(environment.search('(a+)+$', { timeoutMs: 600_000 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining('deadline of 1200 ms'),
    });
  });
});

describe('the search thread', () => {
  // Tests run this package from src/ (through tsx inside the thread); users run dist/. The build
  // runs before the tests (turbo), so the built thread is checked here from a plain Node process.
  it('loads from the built package and enforces the deadline there', () => {
    const entry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    const script = `
      import { LocalEnvironment, MemoryEnvironment } from ${JSON.stringify(entry)};
      const local = new LocalEnvironment({ root: ${JSON.stringify(root)}, search: 'javascript', searchTimeoutMs: 1500 });
      const patient = new LocalEnvironment({ root: ${JSON.stringify(root)}, search: 'javascript', searchTimeoutMs: 60000 });
      const found = await patient.search('^moss$');
      const stopped = await local.search('(a|a)+\\\\1$').catch((error) => error.code);
      const memory = await new MemoryEnvironment({ files: { 'b.txt': 'moss' } }).search('m.ss');
      console.log(JSON.stringify({ found, stopped, memory: memory.totalMatches }));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '--eval', script], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(JSON.parse(output)).toEqual({
      found: {
        matches: [{ path: 'notes.txt', line: 1, text: 'moss' }],
        totalMatches: 1,
        engine: 'javascript',
      },
      stopped: 'TIMEOUT',
      memory: 1,
    });
  });
});
