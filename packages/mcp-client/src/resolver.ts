import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type JsonObject,
  type JsonValue,
  type PolicySubject,
  type ToolContext,
  type ToolDescription,
  ToolgateError,
  type ToolOutput,
  type ToolResolver,
} from '@toolgate/core';
import { firstFailure, maxParallelConnects } from './attach-all.js';
import type { MCPResolverOptions } from './resolver-options.js';
import { checkServerConfig, type McpServerConfig } from './server-config.js';
import {
  extrasOf,
  type ReviewedTool,
  requestOn,
  reviewOf,
  seedReviews,
  servingSummary,
  upstreamsOf,
} from './surface/index.js';
import { Approvals } from './tools/approvals.js';
import { approveTool, changedToolError } from './tools/approve-tool.js';
import { callRemote } from './tools/call-remote.js';
import { ChangeReporter } from './tools/change-reporter.js';
import type { ToolShape } from './tools/fingerprint.js';
import type { ToolExtras } from './tools/read-tool.js';
import { subjectsFor } from './tools/subjects.js';
import {
  describeApproved,
  type Entry,
  forgetTools,
  type IndexState,
  indexTools,
} from './tools/tool-index.js';
import { checkConflicts, prefixOwner, unknownTool, withheldTool } from './tools/tool-names.js';
import { McpConnection } from './transport/index.js';

/**
 * Serves the tools of one or more MCP servers as a core `ToolResolver`. One long-lived session per
 * server; tool lists are cached and refreshed on `list_changed`. Two servers serving the same name
 * is an error at attach time (give one a `prefix`). A name is approved, when first listed, for the
 * server and remote name that listed it; a tool whose description or schema changes afterwards, or
 * the name listed by another server, is refused (TOOL_CHANGED) until
 * {@link MCPResolver.approve} with the fingerprint that was reported and reviewed. A listed tool
 * that cannot be read safely is withheld (reported), never the whole server. Server annotations
 * are never read: a remote tool is never parallel-safe.
 *
 * @example
 * const resolver = await MCPResolver.connect([
 *   { name: 'oracle', command: process.execPath, args: [cliPath, '--tools', 'oracle'] },
 * ]);
 * registry.setResolver(resolver);
 * // … later
 * await resolver.close();
 */
export class MCPResolver implements ToolResolver {
  readonly #options: MCPResolverOptions;
  readonly #changes: ChangeReporter;
  readonly #connections = new Map<string, McpConnection>();
  /** Servers whose attach is under way: their names are taken, their prefixes owned. */
  readonly #attaching = new Map<string, McpConnection>();
  readonly #entries = new Map<string, Entry>();
  readonly #approvals = new Approvals();
  readonly #indexState: IndexState = {
    entries: this.#entries,
    approvals: this.#approvals,
    notices: new Map(),
    prefixOwner: (name, server) =>
      prefixOwner([...this.#connections.values(), ...this.#attaching.values()], name, server),
  };
  #closed = false;

  constructor(options: MCPResolverOptions = {}) {
    this.#changes = new ChangeReporter(options);
    this.#options = options;
    seedReviews(this.#approvals, options.reviewed);
    this.#indexState.withholdNew = options.newTools === 'withhold';
  }

  /**
   * A resolver attached to every server in `servers`, connected in parallel (at most
   * 32 at once); on any failure none stays running, and the error is that
   * of the first failed server in `servers`' order. To serve each server's tools as soon as it is
   * ready, while a slow one is still starting, call {@link attach} for each on a `new MCPResolver()`
   * without awaiting one before the next.
   */
  static async connect(
    servers: readonly McpServerConfig[],
    options: MCPResolverOptions = {},
  ): Promise<MCPResolver> {
    const resolver = new MCPResolver(options);
    const failed = await firstFailure(servers, maxParallelConnects, (server) => resolver.attach(server));
    if (failed) {
      await resolver.close();
      throw failed.error;
    }
    return resolver;
  }

  /**
   * Connects to a server and lists its tools; its tools are served once this resolves, whatever
   * other attaches are still under way (several may run at once). Rejects — and leaves nothing
   * running — when the server cannot be reached, or when one of its tools has the name of another
   * server's tool.
   */
  async attach(config: McpServerConfig): Promise<this> {
    checkServerConfig(config);
    if (this.#connections.has(config.name) || this.#attaching.has(config.name)) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `an MCP server named "${config.name}" is already attached`,
      );
    }
    let attached = false;
    const connection: McpConnection = new McpConnection(config, (tools): Promise<void> => {
      if (attached) return this.#index(connection, tools);
      checkConflicts(this.#entries, connection, tools);
      attached = true;
      return this.#index(connection, tools);
    });
    this.#attaching.set(config.name, connection);
    try {
      await connection.ready();
      if (this.#closed) {
        throw new ToolgateError(
          'TRANSPORT_FAILED',
          `the MCP resolver was closed while "${config.name}" connected`,
        );
      }
    } catch (error) {
      this.#attaching.delete(config.name);
      forgetTools(this.#entries, connection);
      await connection.close();
      throw error;
    }
    this.#attaching.delete(config.name);
    this.#connections.set(config.name, connection);
    return this;
  }

  /** The names of the attached servers. */
  servers(): string[] {
    return [...this.#connections.keys()];
  }

  /**
   * Who this resolver asks and what each serves, for the error when a granted tool is served by
   * none of them: `the MCP servers attached ("files": read_file, list_dir)`.
   */
  servingSummary(): string {
    return servingSummary(this.#connections, this.#entries);
  }

  /**
   * The names of the tools served now as they were approved, in the order listed: a tool whose
   * description or schema changed since (awaiting `approve`) is left out, as is a withheld one.
   */
  servedNames(): string[] {
    return [...this.#entries].filter(([, entry]) => !entry.changed).map(([name]) => name);
  }

  /** Each attached server and whether its session is open now (false while it is down or reconnecting). */
  upstreams(): Array<{ server: string; open: boolean }> {
    return upstreamsOf(this.#connections);
  }

  /** A served tool as approved now (server, remote name, fingerprint, text), for a lock file; undefined while it awaits approval. */
  reviewOf(name: string): ReviewedTool | undefined {
    return reviewOf(this.#entries.get(name));
  }

  /** The name of the attached server that serves the tool `name`, or undefined. */
  serverOf(name: string): string | undefined {
    return this.#entries.get(name)?.connection.name;
  }

  /** The pid of a stdio server's child process while its session is open. */
  pid(server: string): Promise<number | undefined> {
    return this.#connections.get(server)?.pid() ?? Promise.resolve(undefined);
  }

  /**
   * True when an attached server serves `name` (with its prefix). Answers from the last good list:
   * it never waits for a server's refresh, so no server delays another's tools.
   */
  async has(name: string): Promise<boolean> {
    return this.#entries.has(name);
  }

  /**
   * Settles once every `list_changed` refresh asked for so far — of the named server, or of every
   * attached one — has been applied (or has failed, leaving the last good list). Calls need not
   * wait for it (a call waits for its own server's refreshes); an operator or a test that must see a
   * reported change before acting on it does.
   */
  async settled(server?: string): Promise<void> {
    const connections =
      server === undefined ? [...this.#connections.values()] : [this.#connections.get(server)];
    await Promise.all(connections.map((connection) => connection?.settled()));
  }

  /** The tool's description and schema as approved; never a `parallelSafe` (remote hints are not trusted). */
  async describe(name: string): Promise<ToolDescription | undefined> {
    return describeApproved(name, this.#entries.get(name), this.#approvals);
  }

  /**
   * A served tool's title, annotations, icons and output schema as its server last listed them, for
   * a client to show (the gateway passes them on). Hints only: never approved, never read by policy.
   */
  extras(name: string): ToolExtras | undefined {
    return extrasOf(this.#entries.get(name));
  }

  /**
   * Sends a request of an attached server's wider surface (prompts, resources, completion, logging)
   * on its session: `send` gets the SDK client (its `getServerCapabilities()` says what the server
   * offers) and the server's timeout. For the gateway, which grants and records each one itself;
   * rejects with UNKNOWN_TOOL for a server not attached, else a ToolgateError naming the server.
   */
  async request<T>(
    server: string,
    during: string,
    send: (client: Client, timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    return requestOn(this.#connections.get(server), server, during, send);
  }

  /**
   * Calls a remote tool and maps its result to a plain, capped value — or, when the result has blocks
   * beyond its JSON (images, audio, resources, several texts), to `toolResult({ output, content })`
   * with every block, in order, each checked and capped on its own. Rejects with a ToolgateError:
   * TOOL_CHANGED, TRANSPORT_FAILED or TIMEOUT naming the server, or the remote tool's own error.
   */
  async call(name: string, parameters: JsonObject, context?: ToolContext): Promise<JsonValue | ToolOutput> {
    if (this.#closed)
      throw new ToolgateError('TRANSPORT_FAILED', 'this MCP resolver is closed; create a new one');
    this.#changes.throwIfFailed();
    let entry = this.#entry(name);
    if (!entry.connection.open) {
      await entry.connection.ready();
      entry = this.#entry(name); // a reconnect lists the tools again
    }
    this.#changes.throwIfFailed();
    if (entry.changed) throw changedToolError(name, entry.connection.name, this.#options.approveHint?.(name));
    return callRemote(entry, name, parameters, context);
  }

  /**
   * What a call touches, for policy: computed from the `subjects` and `root` of the server's
   * config — declared by whoever configured it, never taken from the server. Undefined when the
   * config maps nothing for this tool, so policy fails closed on rules about paths, commands, hosts.
   */
  async subject(name: string, parameters: JsonObject): Promise<PolicySubject | undefined> {
    const entry = this.#entries.get(name);
    return entry && subjectsFor(entry.connection.config)?.(entry.remoteName, parameters);
  }

  /**
   * Approves a tool as it was reviewed: `reviewed` is the `fingerprint` of the reported change (or
   * the reviewed definition itself). Rejects with TOOL_CHANGED, approving nothing, when the tool
   * the server lists now is not that one (it changed again after the report); with UNKNOWN_TOOL
   * when no attached server serves the name. Approving a name listed by another server than the
   * one it was approved for moves the approval to that server.
   *
   * @example
   * const resolver = await MCPResolver.connect(servers, {
   *   onChange: (change) => review(change), // shows change.before / change.after to an operator
   * });
   * // the operator accepted the change they were shown:
   * resolver.approve(change.tool, change.fingerprint);
   */
  approve(name: string, reviewed: string | ToolShape): void {
    approveTool({ approvals: this.#approvals, entry: this.#entries.get(name), name, reviewed });
  }

  /** Ends every session and stops every child process (an attach under way fails). */
  async close(): Promise<void> {
    this.#closed = true;
    const connections = [...this.#connections.values(), ...this.#attaching.values()];
    this.#connections.clear();
    this.#entries.clear();
    await Promise.all(connections.map((connection) => connection.close()));
  }

  #entry(name: string): Entry {
    const entry = this.#entries.get(name);
    if (!entry) throw withheldTool(this.#connections.values(), name) ?? unknownTool(name);
    return entry;
  }

  async #index(connection: McpConnection, tools: readonly unknown[]): Promise<void> {
    const changes = indexTools(this.#indexState, connection, tools);
    for (const change of changes) await this.#changes.report(change);
    this.#options.onListed?.(connection.name);
  }
}
