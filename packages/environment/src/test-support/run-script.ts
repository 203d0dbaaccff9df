import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsxLoader = createRequire(import.meta.url).resolve('tsx');

/** How {@link runScript} runs a TypeScript script in a child Node process. */
export interface RunScriptOptions {
  /** Run it as this host user (a root test process only); the scenario "as an unprivileged user". */
  user?: { uid: number; gid: number };
  /** Extra descriptors the child inherits, by number: `{ 30: fd }`. */
  descriptors?: Record<number, number>;
  env?: Record<string, string>;
}

/**
 * Runs `script` (a `.ts` file of this package, run from source through tsx) with `args` in a child
 * Node process and resolves its exit code and output. Used to run a scenario as another user, or
 * with descriptors inherited as a supervisor would pass them.
 */
export function runScript(
  script: string,
  args: readonly string[],
  options: RunScriptOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const stdio: Array<'ignore' | 'pipe' | number> = ['ignore', 'pipe', 'pipe'];
  for (const [at, descriptor] of Object.entries(options.descriptors ?? {})) {
    while (stdio.length < Number(at)) stdio.push('ignore');
    stdio[Number(at)] = descriptor;
  }
  const child = spawn(
    process.execPath,
    ['--conditions=@toolgate/source', '--import', tsxLoader, script, ...args],
    {
      stdio,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', ...options.env },
      cwd: '/',
      ...(options.user ?? {}),
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
