import { spawn } from 'node:child_process';
import type { ReportedLine, RipgrepVerifier } from './search-verify.js';

/** How a ripgrep run ended: answered, not runnable or refusing the pattern (so JavaScript should answer), or killed at its deadline. */
export type RipgrepOutcome = 'done' | 'unavailable' | 'pattern-refused' | 'timed-out';

const safeGlob = /^[A-Za-z0-9_.\-/*{},]+$/;
/** Files waiting for verification before reading ripgrep's output pauses. */
const maxBacklog = 64;

/**
 * The ripgrep engine: `rg` over the whole root with the same visibility as the JavaScript engine
 * (hidden files included, ignore files not read, `.git` dropped, symlinks not followed, no
 * transcoding). Binary files (a NUL byte anywhere) are dropped, as ripgrep flags them. Every path
 * is filtered again with `include`, so a glob means exactly what it means to the JavaScript engine.
 * ripgrep walks by name, so what it reports is never trusted: each file's lines go to `verifier`,
 * which checks them against the file opened inside the root (reading ripgrep's output pauses while
 * too many files wait). At `timeoutMs` ripgrep is killed (SIGKILL), verification stops, and the
 * outcome is `timed-out`.
 */
export function searchWithRipgrep(
  options: {
    root: string;
    command: string;
    pattern: string;
    glob: string | undefined;
    /** Arguments that exclude files ripgrep must not open (`--glob=!/…`), given after the glob. */
    exclude?: readonly string[];
    env: Record<string, string>;
    timeoutMs: number;
  },
  include: (path: string) => boolean,
  verifier: RipgrepVerifier,
): Promise<RipgrepOutcome> {
  const args = [
    '--no-config',
    '--no-messages',
    '--null',
    '--line-number',
    '--no-heading',
    '--with-filename',
    '--color=never',
    '--hidden',
    '--no-ignore',
    '--encoding=none',
  ];
  if (options.glob !== undefined && safeGlob.test(options.glob)) args.push(`--glob=${options.glob}`);
  args.push(...(options.exclude ?? []));
  args.push('--regexp', options.pattern, '--', '.');
  return new Promise((resolvePromise) => {
    const child = spawn(options.command, args, {
      cwd: options.root,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    verifier.onDrained = () => child.stdout.resume();
    let timedOut = false;
    let closed = false;
    const timer = setTimeout(() => {
      timedOut = true;
      verifier.cancel();
      // Killed, it answers once it has exited; already gone, it was being verified.
      if (closed) {
        verifier.close();
        resolvePromise('timed-out');
      } else child.kill('SIGKILL');
    }, options.timeoutMs);
    let stderr = '';
    let sawOutput = false;
    let rest: Buffer[] = [];
    let file = '';
    let pending: ReportedLine[] = [];
    const flush = () => {
      if (file !== '' && include(file) && !inGit(file)) verifier.add(file, pending);
      pending = [];
      if (verifier.backlog > maxBacklog) child.stdout.pause();
    };
    const onLine = (bytes: Buffer) => {
      const nul = bytes.indexOf(0);
      if (nul === -1) {
        // A notice such as "./x: WARNING: stopped searching binary file": drop that file's matches.
        pending = [];
        return;
      }
      const path = bytes.toString('utf8', bytes[0] === 46 && bytes[1] === 47 ? 2 : 0, nul);
      if (path !== file) {
        flush();
        file = path;
      }
      const colon = bytes.indexOf(58, nul + 1);
      const line = Number(bytes.toString('latin1', nul + 1, colon));
      pending.push({ line, text: Buffer.from(bytes.subarray(colon + 1)) });
    };
    child.stdout.on('data', (chunk: Buffer) => {
      sawOutput = true;
      let start = 0;
      let newline = chunk.indexOf(10);
      if (newline === -1) {
        rest.push(chunk);
        return;
      }
      if (rest.length > 0) {
        rest.push(chunk.subarray(0, newline));
        onLine(Buffer.concat(rest));
        rest = [];
        start = newline + 1;
        newline = chunk.indexOf(10, start);
      }
      while (newline !== -1) {
        onLine(chunk.subarray(start, newline));
        start = newline + 1;
        newline = chunk.indexOf(10, start);
      }
      if (start < chunk.length) rest.push(chunk.subarray(start));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.once('error', () => {
      clearTimeout(timer);
      verifier.close();
      resolvePromise('unavailable');
    });
    child.once('close', (code) => {
      closed = true;
      if (timedOut) {
        verifier.close();
        resolvePromise('timed-out');
        return;
      }
      if (rest.length > 0) onLine(Buffer.concat(rest));
      flush();
      if (code === 2 && !sawOutput && /regex|pattern/i.test(stderr)) {
        clearTimeout(timer);
        verifier.close();
        resolvePromise('pattern-refused');
        return;
      }
      void verifier.done().then(() => {
        if (timedOut) return;
        clearTimeout(timer);
        verifier.close();
        resolvePromise('done');
      });
    });
  });
}

/** True for a path inside a `.git` directory, which both engines leave out. */
function inGit(path: string): boolean {
  return path === '.git' || path.startsWith('.git/') || path.includes('/.git/') || path.endsWith('/.git');
}
