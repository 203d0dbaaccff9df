import type { CallOptions, ToolContext, ToolProgress } from '../context.js';
import {
  allowingAuthority,
  type CallAuthority,
  type CallAuthorityOptions,
  callAuthority,
} from './authorize.js';

/** What one {@link CallContext} is made of: the call, its budget's end, its progress listener and its authority. */
export interface CallContextOptions {
  tool: string;
  callId: string;
  agent: string;
  /**
   * When the budget ends (ms since the epoch), or how to tell when first read: the budget and the
   * `performance.now()` at which it started (no clock is read until a tool asks).
   */
  deadline: number | PendingDeadline;
  onProgress: CallOptions['onProgress'] | undefined;
  /** How the running tool asks policy: given, or made (once, when the tool first asks) from these options. */
  authority: CallAuthority | CallAuthorityOptions | undefined;
}

/** A budget that started at `startedAt` (`performance.now()`) and lasts `timeoutMs`. */
export interface PendingDeadline {
  readonly startedAt: number;
  readonly timeoutMs: number;
}

/**
 * The {@link ToolContext} the dispatch station hands a tool. What most calls never touch (the
 * signal, the progress function, the authority's functions) is made when first read, through
 * accessors on the class: an object literal with an accessor of its own costs microseconds a call.
 * A read property is a plain function, so `const { authorize } = context` works.
 */
export class CallContext implements ToolContext {
  readonly callId: string;
  readonly agent: string;
  #deadline: number | PendingDeadline;
  readonly #tool: string;
  readonly #onProgress: CallOptions['onProgress'] | undefined;
  #authority: CallAuthority | CallAuthorityOptions | undefined;
  #controller: AbortController | undefined;
  #report: ((progress: ToolProgress) => void) | undefined;
  #ended = false;

  constructor(options: CallContextOptions) {
    this.callId = options.callId;
    this.agent = options.agent;
    this.#deadline = options.deadline;
    this.#tool = options.tool;
    this.#onProgress = options.onProgress;
    this.#authority = options.authority;
  }

  get deadline(): number {
    const deadline = this.#deadline;
    if (typeof deadline === 'number') return deadline;
    // the epoch time the budget started at (to the ms, as Date.now() would have said then), plus
    // the budget: read once, the first time it is asked
    const fixed = Math.round(Date.now() - (performance.now() - deadline.startedAt)) + deadline.timeoutMs;
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
    const onProgress = this.#onProgress;
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
