import type { CallOptions, ToolContext } from '../context.js';
import { afterBudget } from '../deadlines.js';
import { messageOf, ToolgateError } from '../errors.js';
import type { JsonObject } from '../json.js';
import type { CallAuthority, CallAuthorityOptions } from './authorize.js';
import { CallContext } from './call-context.js';
import type { ResolvedTool } from './resolve.js';

/** One call as {@link dispatch} runs it: who made it, under which id, with what budget. */
export interface DispatchedCall {
  callId: string;
  agent: string;
  /** The time budget in ms; `Infinity` for none. */
  timeoutMs: number;
  /** The caller's deadline, in ms since the epoch (`Date.now()`), when it has one: the budget ends there at the latest. */
  deadline?: number | undefined;
  /**
   * The `performance.now()` at which the call's budget starts, when the caller has just read it (no
   * wait since): then no clock is read here, and the context's `deadline` is told from it when a
   * tool first asks. Default: the clock is read here.
   */
  startedAt?: number | undefined;
  signal: AbortSignal | undefined;
  onProgress: CallOptions['onProgress'] | undefined;
  /**
   * How the running tool asks policy (`authorize`, `judge`): given, or the options to make it from
   * when the tool first asks; default: everything is allowed (no gate).
   */
  authority?: CallAuthority | CallAuthorityOptions;
}

/**
 * The dispatch station: runs a validated call — in-process `run(parameters, context)`, or the
 * resolver's `call` — with its {@link ToolContext} (built here, and only here), and ends it early
 * when the caller's signal aborts (CANCELLED) or the budget passes (TIMEOUT): the tool's signal is
 * aborted and the gate stops waiting, whether the tool listens or not. The budget is the sooner of
 * `timeoutMs` and the caller's `deadline`; the context's `deadline` says when it ends, so a lower
 * layer (an MCP connection, a shell) waits exactly that long. A sync tool is answered without a
 * promise, a timer or a signal (it cannot be interrupted, and finishing first it needs none).
 */
export function dispatch(resolved: ResolvedTool, parameters: JsonObject, call: DispatchedCall): unknown {
  const tool = resolved.description.name;
  const outer = call.signal;
  if (outer?.aborted) throw cancelled(tool);
  // the budget: `timeoutMs` and the deadline it ends at (NaN: not read yet, see CallContext)
  let timeoutMs = call.timeoutMs;
  let deadline: number;
  const given = call.deadline;
  if (given === undefined || !Number.isFinite(given)) {
    if (!(timeoutMs < Number.POSITIVE_INFINITY)) deadline = Number.POSITIVE_INFINITY;
    else deadline = call.startedAt === undefined ? Date.now() + timeoutMs : Number.NaN;
  } else {
    const now = Date.now();
    const remaining = Math.max(1, given - now);
    if (remaining < timeoutMs) {
      timeoutMs = remaining;
      deadline = given;
    } else deadline = now + timeoutMs;
  }
  const context = new CallContext(tool, call, deadline);
  let pending: unknown;
  try {
    pending = runTool(resolved, parameters, context);
  } finally {
    if (!(pending instanceof Promise)) CallContext.end(context);
  }
  if (!(pending instanceof Promise)) return pending;
  if (outer === undefined && !(timeoutMs < Number.POSITIVE_INFINITY)) {
    return pending.finally(() => CallContext.end(context));
  }
  return new Promise((resolve, reject) => {
    let ended = false;
    let clearDeadline: (() => void) | undefined;
    let unwatch: (() => void) | undefined;
    const cleanup = () => {
      ended = true;
      CallContext.end(context);
      clearDeadline?.();
      unwatch?.();
    };
    const stop = (error: ToolgateError) => {
      if (ended) return;
      cleanup();
      CallContext.abort(context, error);
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

function runTool(resolved: ResolvedTool, parameters: JsonObject, context: ToolContext): unknown {
  const name = resolved.description.name;
  if (resolved.where === 'resolver') return resolved.resolver.call(name, parameters, context);
  let output: unknown;
  try {
    output = resolved.tool.run(parameters, context);
  } catch (error) {
    throw toolFailure(name, error);
  }
  return output instanceof Promise
    ? output.catch((error) => Promise.reject(toolFailure(name, error)))
    : output;
}

function toolFailure(name: string, error: unknown): ToolgateError {
  if (ToolgateError.is(error)) return error;
  return new ToolgateError('TOOL_FAILED', `tool "${name}" failed: ${messageOf(error)}`, { cause: error });
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
