import { AsyncResource } from 'node:async_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolgateError } from '@toolgate/core';
import type { ParamHeader } from '@toolgate/core/internal';
import { type ResolvedLimits, resolveLimits } from '../limits.js';
import type { McpServerConfig } from '../server-config.js';
import { callerTimeMeta, defaultTimeoutMs } from '../timeouts.js';
import { RefreshScheduler } from '../tools/refresh-scheduler.js';
import { listToolPages, ToolListCollector, type WithheldTool } from '../tools/tool-list.js';
import { type CallOptions, callTimeoutMs, cancelledCall } from './call-options.js';
import { capErrorResult } from './error-text.js';
import { completeInputRounds, type InputRetry } from './input-rounds.js';
import { answeringWithDefaults } from './server-requests.js';
import { listenToNotifications, newSession, type Session } from './session.js';
import { sessionFailure } from './session-failure.js';
import { serverProcess } from './stdio-eras.js';

export type { CallOptions } from './call-options.js';

/**
 * Called with a server's full tool list each time it is listed: first, on reconnect, on
 * `list_changed`. Each tool is as the server sent it (unchecked, but within the server's limits):
 * the listener reads it. A tool withheld for breaking a limit stands in the list as an
 * `OverLimitTool`; `withheld` names those too.
 */
export type ToolsListener = (
  tools: readonly unknown[],
  withheld: readonly WithheldTool[],
) => void | Promise<void>;

/**
 * One long-lived MCP session with one server. It connects on first use, lists (and pages through)
 * the server's tools, refreshes them on `list_changed`, and maps every transport failure to a
 * ToolgateError naming the server. A broken session is dropped (its child process stopped) and the
 * next use reconnects.
 *
 * Everything the server sends is held to the server's limits (see `WireLimits`) while it is read;
 * `list_changed` floods coalesce into at most one refresh running and one queued; other
 * notifications are rate-limited; error text is capped.
 */
export class McpConnection {
  readonly config: McpServerConfig;
  readonly #onTools: ToolsListener;
  #session: Promise<Session> | undefined;
  #current: Session | undefined;
  /** The current session once it has connected and listed its tools. */
  #ready: Session | undefined;
  readonly #limits: ResolvedLimits;
  readonly #refresh: RefreshScheduler;
  #withheld = new Map<string, string>();
  /** The served tools' `x-mcp-header` declarations, as last listed, by remote name. */
  #paramHeaders = new Map<string, readonly ParamHeader[]>();
  #closed = false;
  /** Set once a session has started; before that a failure ends the attach, so nothing reconnects. */
  #started = false;
  /**
   * Runs a function in the async context this connection was made in. A session is opened there,
   * never in the context of the call that happened to need it: what arrives on its own streams
   * (a server's requests outside any call) is then never taken for that call's (see the gateway's
   * `CallsInFlight`), while what arrives on a call's own response stream stays in the call's context.
   */
  readonly #outside = AsyncResource.bind(<T>(run: () => T): T => run());

  constructor(config: McpServerConfig, onTools: ToolsListener) {
    this.config = config;
    this.#onTools = onTools;
    this.#limits = resolveLimits(config.limits);
    this.#refresh = new RefreshScheduler(() => this.#refreshTools());
  }

  /** The limits this server is held to: its config's `limits` over the defaults. */
  get limits(): ResolvedLimits {
    return this.#limits;
  }

  /** Why a tool the server listed is not served (a limit it broke), or undefined. */
  withheld(remoteName: string): string | undefined {
    return this.#withheld.get(remoteName);
  }

  /** The server's name, as errors say it. */
  get name(): string {
    return this.config.name;
  }

  /** The pid of the server's child process while a stdio session is open. */
  async pid(): Promise<number | undefined> {
    const session = await this.#session?.catch(() => undefined);
    return serverProcess(session?.transport)?.pid;
  }

  /** True while a session is open and listed and no `list_changed` refresh is pending. */
  get open(): boolean {
    return this.#ready !== undefined && this.#ready === this.#current && !this.#refresh.pending;
  }

  /**
   * Opens the session (and lists tools) if none is open, and waits for the `list_changed`
   * refreshes asked for so far (not later ones); rejects with TRANSPORT_FAILED or TIMEOUT.
   */
  async ready(): Promise<void> {
    await this.#open();
    await this.#refresh.settled();
  }

  /** Settles once the `list_changed` refreshes asked for so far have been applied (or failed). */
  async settled(): Promise<void> {
    await this.#refresh.settled();
  }

  /**
   * Calls a tool by its name on the server; transport failures reject with a ToolgateError. An
   * aborted `signal` sends `notifications/cancelled` and rejects with CANCELLED, keeping the
   * session; `onProgress` receives the server's progress notifications for the call. A result
   * that asks for input (2026-07-28 `input_required`) is answered through the config's
   * `onServerRequest` and the call sent again, a bounded number of rounds (`completeInputRounds`).
   */
  async call(
    name: string,
    parameters: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const session = this.#ready ?? (await this.#open());
    const { signal, onProgress, deadline } = options;
    let timeout = callTimeoutMs(this.config.timeoutMs, deadline);
    // Each round of a multi-round trip is a request of its own, within the call's deadline.
    const send = async (retry: InputRetry): Promise<CallToolResult> => {
      timeout = callTimeoutMs(this.config.timeoutMs, deadline);
      const request = { name, arguments: parameters, ...retry, ...callerTimeMeta(deadline) };
      const result = await session.client.callTool(request, undefined, {
        timeout,
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onprogress: onProgress } : {}),
      });
      // A fault seen before the answer (junk earlier on stdout) taints it: the stream cannot be trusted.
      if (session.fault !== undefined) throw new Error(session.fault);
      return result as CallToolResult;
    };
    try {
      const answer = this.config.onServerRequest;
      const result = await completeInputRounds(await send({}), {
        server: this.name,
        tool: name,
        answer: answer && answeringWithDefaults(answer),
        retry: send,
        signal,
      });
      return capErrorResult(result, this.#limits.maxErrorChars);
    } catch (error) {
      if (signal?.aborted) throw cancelledCall(this.name, name, signal.reason);
      throw this.#failure(session, `a call to "${name}"`, error, timeout);
    }
  }

  /**
   * Sends one request of the server's wider surface (prompts, resources, completion, logging)
   * through the open session: `send` gets the SDK client and the request's timeout. Failures
   * reject with a ToolgateError naming the server, as a call's do.
   */
  async request<T>(during: string, send: (client: Client, timeoutMs: number) => Promise<T>): Promise<T> {
    const session = this.#ready ?? (await this.#open());
    try {
      const result = await send(session.client, this.#timeoutMs);
      if (session.fault !== undefined) throw new Error(session.fault);
      return result;
    } catch (error) {
      throw this.#failure(session, during, error);
    }
  }

  /** Ends the session and stops the child process; later calls fail. */
  async close(): Promise<void> {
    this.#closed = true;
    // A session still opening is ended now (its start fails), not awaited to its timeout.
    const opening = this.#current;
    if (opening && opening !== this.#ready) await opening.client.close().catch(() => undefined);
    const session = await this.#session?.catch(() => undefined);
    this.#session = undefined;
    this.#current = undefined;
    this.#ready = undefined;
    if (session) await session.client.close().catch(() => undefined);
  }

  get #timeoutMs(): number {
    return this.config.timeoutMs ?? defaultTimeoutMs;
  }

  #open(): Promise<Session> {
    if (this.#closed) {
      return Promise.reject(
        new ToolgateError(
          'TRANSPORT_FAILED',
          `MCP server "${this.name}" is closed; attach it again to use it`,
        ),
      );
    }
    if (!this.#session) {
      const opening = this.#outside(() => this.#connect());
      this.#session = opening;
      opening.catch(() => {
        if (this.#session === opening) {
          this.#session = undefined;
          this.#current = undefined;
          this.#ready = undefined;
        }
      });
    }
    return this.#session;
  }

  async #connect(): Promise<Session> {
    const { session, guarded, bucket } = newSession(this.config, this.#limits, {
      drop: (broken) => void this.#drop(broken),
      forget: (closed) => this.#forget(closed),
      paramHeaders: (tool) => this.#paramHeaders.get(tool),
    });
    const client = session.client;
    this.#current = session;
    try {
      await client.connect(guarded, { timeout: this.#timeoutMs });
      listenToNotifications(client, this.config, { onToolsChanged: () => this.#refresh.request(), bucket });
      await this.#list(session);
      if (this.#current === session) this.#ready = session;
      this.#started = true;
    } catch (error) {
      await this.#drop(session);
      throw this.#failure(session, 'starting it', error);
    }
    return session;
  }

  /** Lists the tools again after `list_changed`; on failure the last good list stays served and the session is dropped. */
  async #refreshTools(): Promise<void> {
    const session = await this.#session?.catch(() => undefined);
    if (!session || session !== this.#current || session.closed) return;
    try {
      await this.#list(session);
    } catch (error) {
      const failure = this.#failure(session, 'listing its tools again', error);
      session.fault ??= failure.message;
      await this.#drop(session);
    }
  }

  async #list(session: Session): Promise<void> {
    const collector = new ToolListCollector(this.name, this.#limits);
    // Not client.listTools: it compiles every output schema the server sends (unbounded work).
    await listToolPages(session.client, {
      server: this.name,
      timeoutMs: this.#timeoutMs,
      onPage: (page) => collector.add(page),
    });
    if (session !== this.#current) return; // a newer session lists for itself
    this.#withheld = new Map(collector.withheld.map((tool) => [tool.remoteName, tool.reason]));
    this.#paramHeaders = collector.paramHeaders;
    await this.#onTools(collector.tools, collector.withheld);
  }

  #failure(session: Session, during: string, error: unknown, timeoutMs = this.#timeoutMs): ToolgateError {
    const { failure, drop } = sessionFailure(this.name, session, during, error, {
      started: this.#started,
      timeoutMs,
      maxErrorChars: this.#limits.maxErrorChars,
    });
    if (drop) void this.#drop(session);
    return failure;
  }

  #forget(session: Session): void {
    if (this.#current === session) {
      this.#current = undefined;
      this.#ready = undefined;
      this.#session = undefined;
    }
  }

  async #drop(session: Session): Promise<void> {
    this.#forget(session);
    await session.client.close().catch(() => undefined);
  }
}
