import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), 'children', 'demo-run.mjs');

/** What `children/demo-run.mjs` does: a demo run in one of its modes, or the ledger floor. */
export type DemoMode = 'in-process' | 'mcp' | 'replay' | 'ledger-floor';

/** One run in a fresh process. */
export interface DemoRun {
  /** `runDemo` (or the floor's appends), timed inside the child. */
  milliseconds: number;
  /** The whole child process, spawn to exit, timed by the parent. */
  wall: number;
  events: number;
  /** For a replay: whether it wrote the recording byte for byte. */
  identical?: boolean;
  /** The child's peak resident set. */
  maxRssKiB: number;
}

/** Runs oracle-grove once in a fresh Node process and reads what it measured. */
export function runDemoInChild(
  mode: DemoMode,
  options: { turns?: number; ledger: string; replay?: string },
): Promise<DemoRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const running = spawn(process.execPath, [script, JSON.stringify({ mode, ...options })], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    running.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    running.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    running.once('error', reject);
    running.once('close', (code) => {
      const wall = performance.now() - started;
      if (code !== 0) return reject(new Error(`the ${mode} run exited ${code}: ${err}`));
      resolve({ ...(JSON.parse(out) as Omit<DemoRun, 'wall'>), wall });
    });
  });
}
