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

/** A binary installed in this package's node_modules/.bin. */
export function binPath(name: string): string {
  return join(packageDir, 'node_modules', '.bin', name);
}

/** A running `toolgate-mcp --http` child. */
export interface HttpChild {
  url: string;
  port: number;
  pid: number;
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

/** Runs a command to completion, collecting its output. */
export function run(
  command: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdin.end(options.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
