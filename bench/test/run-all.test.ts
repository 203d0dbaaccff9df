import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

const benchDir = fileURLToPath(new URL('..', import.meta.url));
const place = mkdtempSync(join(tmpdir(), 'toolgate-bench-runner-'));
const started: number[] = [];
afterAll(() => {
  // should the runner have left one behind, the test says so above; this only tidies up
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(place, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// A bench file that starts a server-like grandchild in a process group of its own (as mcp.bench.ts
// starts `toolgate-mcp --http`, whose stdin is not a pipe that would end it) and then hangs.
const hangingBench = (pids: string) => `
import { spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
// written whole, then renamed into place: the test reads the file as soon as it exists
writeFileSync(${JSON.stringify(`${pids}.part`)}, JSON.stringify({ bench: process.pid, server: server.pid }));
renameSync(${JSON.stringify(`${pids}.part`)}, ${JSON.stringify(pids)});
setInterval(() => {}, 1000);
`;

describe('pnpm bench (run-all.ts)', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`announces each file as it starts, and on ${signal} stops it and what it started`, async () => {
      const files = join(place, signal, 'src');
      mkdirSync(files, { recursive: true });
      const pids = join(place, signal, 'pids.json');
      writeFileSync(join(files, 'hang.bench.ts'), hangingBench(pids));
      const runner = spawn(process.execPath, ['--import', 'tsx', 'src/run-all.ts', '--quick'], {
        cwd: benchDir,
        env: { ...process.env, TOOLGATE_BENCH_DIR: files },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      runner.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
      });
      const exited = new Promise<number | null>((resolve) => runner.once('exit', resolve));
      await vi.waitFor(() => expect(existsSync(pids)).toBe(true), { timeout: 60_000, interval: 100 });
      const { bench, server } = JSON.parse(readFileSync(pids, 'utf8')) as { bench: number; server: number };
      started.push(bench, server);
      expect(alive(server)).toBe(true);
      expect(output).toContain(
        '--- starting hang.bench.ts (1/1, no figure from a full run yet; quick runs are shorter)',
      );
      runner.kill(signal);
      expect(await exited).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(output).toContain(`${signal}: stopping hang.bench.ts and what they started`);
      await vi.waitFor(() => expect([alive(bench), alive(server)]).toEqual([false, false]), {
        timeout: 10_000,
        interval: 100,
      });
    });
  }
});
