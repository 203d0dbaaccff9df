import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { messageOf, ToolgateError } from '@toolgate/core';
import { listToolPages } from './list-tools.js';
import { outputSchemasNotValidated } from './output-validator.js';
import { isStdioConfig, type McpServerConfig } from './server-config.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

/**
 * Called with a server's full tool list each time it is listed: first, on reconnect, on
 * `list_changed`. Each tool is as the server sent it (unchecked): the listener reads it.
 */
export type ToolsListener = (tools: readonly unknown[]) => void | Promise<void>;

interface Session {
  readonly client: Client;
  readonly transport: Transport;
  /** Why the session broke, when the transport said so (junk on stdout, a dead pipe). */
  fault: string | undefined;
  stderr: string;
  closed: boolean;
}

const stderrTail = 2000;

/**
 * One long-lived MCP session with one server. It connects on first use, lists (and pages through)
 * the server's tools, refreshes them on `list_changed`, and maps every transport failure to a
 * ToolgateError naming the server. A broken session is dropped (its child process stopped) and the
 * next use reconnects.
 */
export class McpConnection {
  readonly config: McpServerConfig;
  readonly #onTools: ToolsListener;
  #session: Promise<Session> | undefined;
  #current: Session | undefined;
  /** The current session once it has connected and listed its tools. */
  #ready: Session | undefined;
  #refreshing: Promise<void> | undefined;
  #closed = false;
  /** Set once a session has started; before that a failure ends the attach, so nothing reconnects. */
  #started = false;

  constructor(config: McpServerConfig, onTools: ToolsListener) {
    this.config = config;
    this.#onTools = onTools;
  }

  /** The server's name, as errors say it. */
  get name(): string {
    return this.config.name;
  }

  /** The pid of the server's child process while a stdio session is open. */
  async pid(): Promise<number | undefined> {
    const session = await this.#session?.catch(() => undefined);
    const transport = session?.transport;
    return transport instanceof ProcessGroupStdioTransport ? transport.pid : undefined;
  }

  /** True while a session is open and listed and no `list_changed` refresh is pending. */
  get open(): boolean {
    return this.#ready !== undefined && this.#ready === this.#current && this.#refreshing === undefined;
  }

  /**
   * Opens the session (and lists tools) if none is open, and waits for a pending `list_changed`
   * refresh; rejects with TRANSPORT_FAILED or TIMEOUT.
   */
  async ready(): Promise<void> {
    await this.#open();
    await this.#refreshing;
  }

  /** Settles once any `list_changed` refresh in flight has been applied. */
  async settled(): Promise<void> {
    await this.#refreshing;
  }

  /**
   * Calls a tool by its name on the server; transport failures reject with a ToolgateError. An
   * aborted `signal` sends `notifications/cancelled` and rejects with CANCELLED, keeping the
   * session; `onProgress` receives the server's progress notifications for the call.
   */
  async call(
    name: string,
    parameters: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const session = this.#ready ?? (await this.#open());
    const { signal, onProgress } = options;
    try {
      const result = await session.client.callTool({ name, arguments: parameters }, undefined, {
        timeout: this.#timeoutMs,
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onprogress: onProgress } : {}),
      });
      // A fault seen before the answer (junk earlier on stdout) taints it: the stream cannot be trusted.
      if (session.fault !== undefined) throw new Error(session.fault);
      return result as CallToolResult;
    } catch (error) {
      if (signal?.aborted) throw cancelledCall(this.name, name, signal.reason);
      throw this.#failure(session, `a call to "${name}"`, error);
    }
  }

  /** Ends the session and stops the child process; later calls fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const session = await this.#session?.catch(() => undefined);
    this.#session = undefined;
    this.#current = undefined;
    this.#ready = undefined;
    if (session) await session.client.close().catch(() => undefined);
  }

  get #timeoutMs(): number {
    return this.config.timeoutMs ?? 60_000;
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
      const opening = this.#connect();
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
    const transport = this.#transport();
    const client = new Client(
      { name: 'toolgate', version: '0.1.0' },
      { capabilities: {}, jsonSchemaValidator: outputSchemasNotValidated },
    );
    const session: Session = { client, transport, fault: undefined, stderr: '', closed: false };
    this.#current = session;
    if (transport instanceof ProcessGroupStdioTransport) {
      transport.stderr.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        session.stderr = (session.stderr + text).slice(-stderrTail);
        if (isStdioConfig(this.config)) this.config.onStderr?.(text);
      });
      // Anything the stdio transport reports (junk on stdout, a dead pipe) breaks the stream.
      transport.onerror = (error) => {
        const junk = error instanceof SyntaxError || error.name === 'ZodError';
        session.fault ??= junk
          ? `it wrote a line that is not JSON-RPC to stdout (${messageOf(error)})`
          : messageOf(error);
        void this.#drop(session);
      };
    }
    client.onclose = () => {
      session.closed = true;
      this.#forget(session);
    };
    try {
      await client.connect(transport, { timeout: this.#timeoutMs });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        const refresh: Promise<void> = this.#list(session)
          .catch(() => undefined)
          .finally(() => {
            if (this.#refreshing === refresh) this.#refreshing = undefined;
          });
        this.#refreshing = refresh;
      });
      await this.#list(session);
      if (this.#current === session) this.#ready = session;
      this.#started = true;
    } catch (error) {
      await this.#drop(session);
      throw this.#failure(session, 'starting it', error);
    }
    return session;
  }

  #transport(): Transport {
    const config = this.config;
    if (isStdioConfig(config)) {
      // Its own process group, killed on close and on timeout: the server's children go with it.
      return new ProcessGroupStdioTransport({
        command: config.command,
        args: config.args ?? [],
        ...(config.env ? { env: config.env } : {}),
        ...(config.cwd ? { cwd: config.cwd } : {}),
      });
    }
    const headers = config.headers;
    return new StreamableHTTPClientTransport(
      new URL(config.url),
      headers ? { requestInit: { headers } } : {},
    );
  }

  async #list(session: Session): Promise<void> {
    await this.#onTools(await listToolPages(session.client, this.name, this.#timeoutMs));
  }

  #failure(session: Session, during: string, error: unknown): ToolgateError {
    if (ToolgateError.is(error)) return error;
    const server = `MCP server "${this.name}"`;
    const code = error instanceof McpError ? error.code : undefined;
    if (code === ErrorCode.RequestTimeout && session.fault === undefined) {
      void this.#drop(session);
      return new ToolgateError(
        'TIMEOUT',
        `${server} did not answer ${during} within ${this.#timeoutMs} ms; ` +
          `it was stopped${this.#started ? ', and the next call starts a new session' : ''}`,
        { cause: error },
      );
    }
    const remoteRefusal = code !== undefined && code !== ErrorCode.ConnectionClosed;
    if (remoteRefusal && session.fault === undefined && !session.closed && during !== 'starting it') {
      return new ToolgateError('TOOL_FAILED', `${server} refused ${during}: ${messageOf(error)}`, {
        cause: error,
      });
    }
    void this.#drop(session);
    const why = session.fault ?? messageOf(error);
    const stderr = session.stderr.trim()
      ? `; its stderr ended with: ${session.stderr.trim().slice(-500)}`
      : '';
    return new ToolgateError(
      'TRANSPORT_FAILED',
      `${server} failed during ${during}: ${why}${stderr}${this.#started ? '; the next call reconnects' : ''}`,
      { cause: error },
    );
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

/** What {@link McpConnection.call} may be given. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** The caller's own reason when it is a ToolgateError (CANCELLED, TIMEOUT), else CANCELLED. */
function cancelledCall(server: string, tool: string, reason: unknown): ToolgateError {
  if (ToolgateError.is(reason)) return reason;
  return new ToolgateError(
    'CANCELLED',
    `the call to "${tool}" on MCP server "${server}" was cancelled by its caller; the server was told to stop`,
  );
}
