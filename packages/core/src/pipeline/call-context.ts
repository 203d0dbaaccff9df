import type { ToolContext, ToolProgress } from '../context.js';
import {
  allowingAuthority,
  type CallAuthority,
  type CallAuthorityOptions,
  callAuthority,
} from './authorize.js';
import type { DispatchedCall } from './dispatch.js';

/**
 * The {@link ToolContext} the dispatch station hands a tool. What most calls never touch (the
 * signal, the progress function, the authority's functions) is made when first read, through
 * accessors on the class: an object literal with an accessor of its own costs microseconds a call.
 * A read property is a plain function, so `const { authorize } = context` works.
 */
export class CallContext implements ToolContext {
  readonly callId: string;
  readonly agent: string;
  /** When the budget ends (ms since the epoch); NaN until first read when it started at `call.startedAt`. */
  #deadline: number;
  readonly #tool: string;
  readonly #call: DispatchedCall;
  #authority: CallAuthority | CallAuthorityOptions | undefined;
  #controller: AbortController | undefined;
  #report: ((progress: ToolProgress) => void) | undefined;
  #ended = false;

  /**
   * The context of `call` running `tool`, its budget ending at `deadline` (ms since the epoch), or
   * NaN when the budget of `call.timeoutMs` started at `call.startedAt` (`performance.now()`) and
   * no clock has been read for it yet.
   */
  constructor(tool: string, call: DispatchedCall, deadline: number) {
    this.callId = call.callId;
    this.agent = call.agent;
    this.#deadline = deadline;
    this.#tool = tool;
    this.#call = call;
    this.#authority = call.authority;
  }

  get deadline(): number {
    const deadline = this.#deadline;
    if (!Number.isNaN(deadline)) return deadline;
    // the epoch time the budget started at (to the ms, as Date.now() would have said then), plus
    // the budget: read once, the first time it is asked
    const { startedAt = performance.now(), timeoutMs } = this.#call;
    const fixed = Math.round(Date.now() - (performance.now() - startedAt)) + timeoutMs;
    this.#deadline = fixed;
    return fixed;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  get reportProgress(): (progress: ToolProgress) => void {
    this.#report ??= (progress) => this.#reportProgress(progress);
    return this.#report;
  }

  get authorize(): ToolContext['authorize'] {
    return this.#authorityOf().authorize;
  }

  get judge(): ToolContext['judge'] {
    return this.#authorityOf().judge;
  }

  get judgesPaths(): ToolContext['judgesPaths'] {
    return this.#authorityOf().judgesPaths;
  }

  /** Marks the call ended: later progress reports are ignored. */
  static end(context: CallContext): void {
    context.#ended = true;
  }

  /** Ends the call and aborts the tool's signal with `reason`. */
  static abort(context: CallContext, reason: unknown): void {
    context.#ended = true;
    context.#controller ??= new AbortController();
    context.#controller.abort(reason);
  }

  #authorityOf(): CallAuthority {
    const authority = this.#authority;
    if (authority === undefined) return allowingAuthority;
    if ('policy' in authority) {
      const made = callAuthority(authority);
      this.#authority = made;
      return made;
    }
    return authority;
  }

  #reportProgress(progress: ToolProgress): void {
    const onProgress = this.#call.onProgress;
    if (this.#ended || onProgress === undefined) return;
    const report = progressOf(progress);
    if (report === undefined) return;
    try {
      onProgress({ callId: this.callId, tool: this.#tool, ...report });
    } catch {
      // progress is advisory: a failing listener must not fail the tool
    }
  }
}

function progressOf(progress: ToolProgress): ToolProgress | undefined {
  if (typeof progress !== 'object' || progress === null) return undefined;
  if (typeof progress.progress !== 'number' || !Number.isFinite(progress.progress)) return undefined;
  const report: ToolProgress = { progress: progress.progress };
  if (typeof progress.total === 'number' && Number.isFinite(progress.total)) report.total = progress.total;
  if (typeof progress.message === 'string') report.message = progress.message;
  return report;
}
