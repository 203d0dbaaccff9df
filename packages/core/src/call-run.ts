import { allowingAuthority, type CallAuthority } from './call-authority.js';
import type { CallOptions, ToolContext, ToolProgress } from './context.js';
import { afterBudget } from './deadlines.js';
import { ToolgateError } from './errors.js';
import type { JsonObject } from './json.js';
import { dispatch, type ResolvedTool } from './registry.js';

/** One call as {@link runCall} runs it: who made it, under which id, with what budget. */
export interface CallRun {
  callId: string;
  agent: string;
  /** The time budget in ms; `Infinity` for none. */
  timeoutMs: number;
  signal: AbortSignal | undefined;
  onProgress: CallOptions['onProgress'] | undefined;
  /** How the running tool asks policy (`authorize`, `judge`); default: everything is allowed (no gate). */
  authority?: CallAuthority;
}

/**
 * Dispatches a validated call with its {@link ToolContext}, and ends it early when the caller's
 * signal aborts (CANCELLED) or the budget passes (TIMEOUT): the tool's signal is aborted and the
 * gate stops waiting, whether the tool listens or not. A sync tool is answered without a promise,
 * a timer or a signal (it cannot be interrupted, and finishing first it needs none).
 */
export function runCall(resolved: ResolvedTool, parameters: JsonObject, call: CallRun): unknown {
  const tool = resolved.description.name;
  const outer = call.signal;
  if (outer?.aborted) throw cancelled(tool);
  let controller: AbortController | undefined;
  let ended = false;
  const { callId, agent, onProgress } = call;
  const authority = call.authority ?? allowingAuthority;
  const context: ToolContext = {
    get signal() {
      controller ??= new AbortController();
      return controller.signal;
    },
    callId,
    agent,
    reportProgress(progress: ToolProgress) {
      if (ended || onProgress === undefined) return;
      const report = progressOf(progress);
      if (report === undefined) return;
      try {
        onProgress({ callId, tool, ...report });
      } catch {
        // progress is advisory: a failing listener must not fail the tool
      }
    },
    authorize: authority.authorize,
    judge: authority.judge,
  };
  let pending: unknown;
  try {
    pending = dispatch(resolved, parameters, context);
  } finally {
    if (!(pending instanceof Promise)) ended = true;
  }
  if (!(pending instanceof Promise)) return pending;
  const timeoutMs = call.timeoutMs;
  if (outer === undefined && !(timeoutMs < Number.POSITIVE_INFINITY)) {
    return pending.finally(() => {
      ended = true;
    });
  }
  return new Promise((resolve, reject) => {
    let clearDeadline: (() => void) | undefined;
    let unwatch: (() => void) | undefined;
    const cleanup = () => {
      ended = true;
      clearDeadline?.();
      unwatch?.();
    };
    const stop = (error: ToolgateError) => {
      if (ended) return;
      cleanup();
      controller ??= new AbortController();
      controller.abort(error);
      reject(error);
    };
    if (timeoutMs < Number.POSITIVE_INFINITY)
      clearDeadline = afterBudget(timeoutMs, () => stop(timedOut(tool, timeoutMs)));
    if (outer) unwatch = whenAborted(outer, () => stop(cancelled(tool)));
    (pending as Promise<unknown>).then(
      (value) => {
        if (ended) return;
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        if (ended) return;
        cleanup();
        reject(error);
      },
    );
  });
}

const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `fire` when `signal` aborts, unless the returned function is called first. One listener per
 * signal serves all its calls (a turn's signal is shared by its calls), which is far cheaper than
 * adding and removing a listener per call.
 */
function whenAborted(signal: AbortSignal, fire: () => void): () => void {
  let waiting = watchers.get(signal);
  if (waiting === undefined) {
    const calls = new Set<() => void>();
    waiting = calls;
    watchers.set(signal, calls);
    signal.addEventListener(
      'abort',
      () => {
        for (const call of [...calls]) call();
        calls.clear();
      },
      { once: true },
    );
  }
  const calls = waiting;
  calls.add(fire);
  return () => calls.delete(fire);
}

/** A time budget as given (a positive number of ms, `Infinity` for none), or a definition error. */
export function checkTimeout(timeoutMs: unknown, what: string): number {
  if (typeof timeoutMs === 'number' && timeoutMs > 0 && !Number.isNaN(timeoutMs)) return timeoutMs;
  throw new ToolgateError(
    'INVALID_DEFINITION',
    `${what} timeoutMs must be a positive number of milliseconds (Infinity for none), not ${String(timeoutMs)}`,
  );
}

function cancelled(tool: string): ToolgateError {
  return new ToolgateError(
    'CANCELLED',
    `the call to tool "${tool}" was cancelled by its caller before it finished; its signal was aborted ` +
      'and any later result is discarded',
  );
}

function timedOut(tool: string, timeoutMs: number): ToolgateError {
  return new ToolgateError(
    'TIMEOUT',
    `tool "${tool}" did not finish within ${timeoutMs} ms; it was told to stop (its signal aborted) and ` +
      'any later result is discarded; call it with less work, or raise its timeoutMs',
  );
}

function progressOf(progress: ToolProgress): ToolProgress | undefined {
  if (typeof progress !== 'object' || progress === null) return undefined;
  if (typeof progress.progress !== 'number' || !Number.isFinite(progress.progress)) return undefined;
  const report: ToolProgress = { progress: progress.progress };
  if (typeof progress.total === 'number' && Number.isFinite(progress.total)) report.total = progress.total;
  if (typeof progress.message === 'string') report.message = progress.message;
  return report;
}
