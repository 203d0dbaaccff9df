import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { ToolgateError, type ToolgateErrorCode } from '@toolgate/core';
import type { SearchResult } from '../environment.js';
import type { SearchJob } from './search-job.js';

type Reply = { ok: true; result: SearchResult } | { ok: false; code: ToolgateErrorCode; message: string };

/** Idle search threads kept for the next search, each with what takes it out of the pool; they never keep the process alive. */
const idle = new Map<Worker, () => void>();
const maxIdle = 2;
const idleMs = 15_000;
/** Threads still loading after their caller's deadline passed, to join the idle ones (at most `maxIdle`). */
let loadingForIdle = 0;

/**
 * The most search threads this process runs at once: `max(2, availableParallelism())`. Searches past
 * it wait in line (first come, first served) for a thread to finish or be terminated.
 */
export const maxSearchThreads = Math.max(2, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

/** How many search threads are idle, started and kept for the next search (for tests). */
export function idleSearchThreads(): number {
  return idle.size;
}

/** How many search threads are running a search right now (for tests). */
export function runningSearchThreads(): number {
  return running;
}

/**
 * Runs a JavaScript-engine search on a worker thread, so a regular expression that backtracks for
 * ever stalls that thread and never the caller's event loop. At most {@link maxSearchThreads} run at
 * once; the others wait in line. The deadline, `timeoutMs`, counts from this call, time spent in
 * line and the time a fresh thread takes to load included (a load is also bounded by
 * {@link threadStartupMs}). A search still in line or still waiting for its thread at its deadline
 * fails with TIMEOUT without ever running; a running one has
 * its thread terminated (which stops even a regex in the middle of a match; Node closes the
 * descriptors the thread's walk held open, see `trackUnmanagedFds`) and fails with TIMEOUT naming
 * the pattern and the deadline (`reportedTimeoutMs`, when the caller's deadline began earlier).
 * Finished threads are kept briefly for the next search.
 */
export async function searchOffThread(
  job: SearchJob,
  timeoutMs: number,
  reportedTimeoutMs = timeoutMs,
): Promise<SearchResult> {
  const deadline = performance.now() + timeoutMs;
  await takeSlot(deadline, () =>
    searchTimedOut(
      job.pattern,
      reportedTimeoutMs,
      'JavaScript',
      `; it waited all that time in line, behind the ${maxSearchThreads} searches this process runs at once`,
    ),
  );
  let handedOver = false;
  try {
    const worker = await takeWorker(deadline, () =>
      searchTimedOut(job.pattern, reportedTimeoutMs, 'JavaScript', '; its search thread was still starting'),
    );
    handedOver = true;
    const remaining = Math.max(1, Math.ceil(deadline - performance.now()));
    return await runOnWorker(worker, job, remaining, reportedTimeoutMs);
  } finally {
    if (!handedOver) giveSlotBack();
  }
}

/** Waits for a free search thread slot, or fails with `timedOut()` at `deadline`. */
function takeSlot(deadline: number, timedOut: () => Error): Promise<void> {
  if (running < maxSearchThreads) {
    running++;
    return Promise.resolve();
  }
  return new Promise((resolvePromise, rejectPromise) => {
    const turn = () => {
      clearTimeout(timer);
      running++;
      resolvePromise();
    };
    const timer = setTimeout(
      () => {
        const index = waiting.indexOf(turn);
        if (index !== -1) waiting.splice(index, 1);
        rejectPromise(timedOut());
      },
      Math.max(1, Math.ceil(deadline - performance.now())),
    );
    waiting.push(turn);
  });
}

function giveSlotBack(): void {
  running--;
  waiting.shift()?.();
}

/**
 * Runs `job` on a started thread. The slot is given back once the thread is free again: at once when
 * it answered, or once it has really stopped when it was terminated.
 */
function runOnWorker(
  worker: Worker,
  job: SearchJob,
  timeoutMs: number,
  reportedTimeoutMs: number,
): Promise<SearchResult> {
  return new Promise((resolvePromise, rejectPromise) => {
    let settled = false;
    const settle = (reusable: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (reusable) {
        giveBack(worker);
        giveSlotBack();
      } else {
        void worker
          .terminate()
          .catch(() => {})
          .finally(giveSlotBack);
      }
      outcome();
    };
    const onMessage = (reply: Reply) =>
      settle(true, () =>
        reply.ok ? resolvePromise(reply.result) : rejectPromise(new ToolgateError(reply.code, reply.message)),
      );
    const onError = (error: Error) => settle(false, () => rejectPromise(threadFailed(error)));
    const onExit = (code: number) =>
      settle(false, () => rejectPromise(threadFailed(new Error(`the thread exited with code ${code}`))));
    const timer = setTimeout(
      () => settle(false, () => rejectPromise(searchTimedOut(job.pattern, reportedTimeoutMs, 'JavaScript'))),
      timeoutMs,
    );
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.ref();
    worker.postMessage(job);
  });
}

/** How long a new search thread may take to load before the search fails (a guard against a hang). */
export const threadStartupMs = 60_000;

/**
 * The TIMEOUT error of a search stopped at its deadline, naming the pattern (cut to 200 characters)
 * and the deadline, and saying what to do.
 */
export function searchTimedOut(pattern: string, timeoutMs: number, engine: string, note = ''): ToolgateError {
  const shown = pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern;
  return new ToolgateError(
    'TIMEOUT',
    `the search for pattern ${JSON.stringify(shown)} was stopped at its deadline of ${timeoutMs} ms ` +
      `(${engine} engine${note}); simplify the pattern (nested quantifiers such as (a+)+, backreferences and ` +
      'lookaround can take exponential time) or narrow the search with a glob',
  );
}

/** An idle thread, else a new one; a new one's load fails with `timedOut()` at the search's `deadline`. */
async function takeWorker(deadline: number, timedOut: () => Error): Promise<Worker> {
  const reused = idle.keys().next();
  if (reused.done) return startWorker(deadline, timedOut);
  idle.get(reused.value)?.();
  return reused.value;
}

/**
 * A new search thread, once it has loaded and said so: within {@link threadStartupMs}, and before
 * `deadline`. A thread still loading at the caller's deadline fails that search with `timedOut()` but
 * goes on loading, no longer keeping the process alive, and joins the idle threads once ready: on a
 * loaded machine its load is not wasted, and the next search finds it started. At most `maxIdle`
 * threads load so; past that, a thread late for its caller is terminated.
 */
function startWorker(deadline: number, timedOut: () => Error): Promise<Worker> {
  return new Promise((resolvePromise, rejectPromise) => {
    let worker: Worker;
    try {
      const { entry, options } = workerEntry();
      worker = new Worker(entry, options);
    } catch (error) {
      rejectPromise(threadFailed(error));
      return;
    }
    let callerWaiting = true;
    let countedLoading = false;
    const done = () => {
      if (countedLoading) loadingForIdle--;
      countedLoading = false;
      clearTimeout(callerTimer);
      clearTimeout(startupTimer);
      worker.off('message', onMessage).off('error', fail).off('exit', onExit);
    };
    const fail = (error: Error) => {
      done();
      void worker.terminate();
      if (callerWaiting) rejectPromise(ToolgateError.is(error) ? error : threadFailed(error));
    };
    const onMessage = (message: unknown) => {
      if (message !== 'ready') return;
      done();
      if (callerWaiting) resolvePromise(worker);
      else giveBack(worker);
    };
    const onExit = (code: number) => fail(new Error(`the thread exited with code ${code} while starting`));
    const untilDeadline = Math.max(1, Math.ceil(deadline - performance.now()));
    const callerTimer = setTimeout(() => {
      callerWaiting = false;
      rejectPromise(timedOut());
      if (loadingForIdle >= maxIdle) return fail(new Error('no room among the idle threads'));
      loadingForIdle++;
      countedLoading = true;
      worker.unref();
    }, untilDeadline);
    const startupTimer = setTimeout(
      () => fail(new Error(`the thread did not start within ${threadStartupMs} ms`)),
      threadStartupMs,
    );
    startupTimer.unref();
    worker.on('message', onMessage).on('error', fail).on('exit', onExit);
  });
}

function giveBack(worker: Worker): void {
  worker.unref();
  if (idle.size >= maxIdle) {
    void worker.terminate();
    return;
  }
  const retire = () => {
    clearTimeout(timer);
    worker.off('exit', retire);
    idle.delete(worker);
  };
  const timer = setTimeout(() => {
    retire();
    void worker.terminate();
  }, idleMs);
  timer.unref();
  // A thread that dies while idle is dropped, so it is never handed a search.
  worker.on('exit', retire);
  idle.set(worker, retire);
}

function threadFailed(error: unknown): ToolgateError {
  return new ToolgateError(
    'TOOL_FAILED',
    `the search thread failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}

/**
 * Where the thread's entry is. Built, it is `search-worker.js` beside this file. Run from source
 * (tests resolve packages to `src/` through the `@toolgate/source` condition), it is
 * `search-worker.ts`, loaded through tsx (a development dependency) registered inside the thread,
 * with the same condition.
 */
function workerEntry(): { entry: URL | string; options: WorkerOptions } {
  const here = import.meta.url;
  // The thread needs none of this process's flags, and some (`--eval`, `--input-type`) break it.
  // Descriptors the walk holds when the thread is terminated are closed by Node (`trackUnmanagedFds`,
  // the default, set here so it stays so).
  if (!here.endsWith('.ts'))
    return {
      entry: new URL('./search-worker.js', here),
      options: { execArgv: [], trackUnmanagedFds: true },
    };
  const manifestPath = createRequire(here).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  const api = pathToFileURL(join(dirname(manifestPath), manifest.exports['./esm/api'].import.default)).href;
  const source = new URL('./search-worker.ts', here).href;
  return {
    entry: `import { register } from ${JSON.stringify(api)};\nregister();\nawait import(${JSON.stringify(source)});`,
    options: { eval: true, execArgv: ['--conditions=@toolgate/source'], trackUnmanagedFds: true },
  };
}
