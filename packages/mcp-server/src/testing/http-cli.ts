import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The built CLI; throws a clear message when `dist/` is missing (run `pnpm test`, which builds first). */
export function cliPath(): string {
  const path = join(packageDir, 'dist', 'cli.js');
  if (!existsSync(path)) {
    throw new Error(
      `${path} does not exist: build it first (pnpm --filter @toolgate/mcp-server... build), or run pnpm test`,
    );
  }
  return path;
}

/** A running `toolgate-mcp --http` child. */
export interface HttpChild {
  url: string;
  port: number;
  pid: number;
  /** Everything the child has written to stderr so far. */
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts `toolgate-mcp --http --port 0 …` and waits for the URL it prints on stderr. */
export function startHttpCli(extra: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<HttpChild> {
  const child = spawn(process.execPath, [cliPath(), '--http', ...extra], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.once('exit', (code) => reject(new Error(`toolgate-mcp --http exited (${code}): ${stderr}`)));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(stderr);
      if (!match) return;
      child.removeAllListeners('exit');
      const url = match[1]!;
      resolve({
        url,
        port: Number(new URL(url).port),
        pid: child.pid!,
        stderr: () => stderr,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
