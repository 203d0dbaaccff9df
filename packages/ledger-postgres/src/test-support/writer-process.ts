import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), 'postgres-writer.mjs');

/** A writer child process (postgres-writer.mjs) whose output lines a test can wait for. */
export class WriterProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  #stderr = '';
  #changed: (() => void)[] = [];

  constructor(url: string, ledger: string, name: string, count: number | 'until-stopped') {
    this.child = spawn(process.execPath, [script, url, ledger, name, String(count)], { stdio: 'pipe' });
    let buffer = '';
    this.child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      this.lines.push(...parts);
      this.#notify();
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString();
    });
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code) => {
        resolve(code);
        this.#notify();
      }),
    );
  }

  /** How many appends it reported as stored. */
  get stored(): number {
    return this.lines.filter((line) => line.startsWith('ok ')).length;
  }

  /** Resolves once `done` holds; rejects after `ms` (a hang guard) or when the process exits first. */
  async until(done: () => boolean, what: string, ms = 120_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        if (done()) return;
        throw new Error(
          `writer ${this.child.pid} exited before ${what}: ${this.#stderr}${this.lines.slice(-3).join(' | ')}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`writer ${this.child.pid}: no ${what} within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.#changed.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  stop(): void {
    this.child.stdin.write('stop\n');
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  #notify(): void {
    const waiters = this.#changed;
    this.#changed = [];
    for (const waiter of waiters) waiter();
  }
}
