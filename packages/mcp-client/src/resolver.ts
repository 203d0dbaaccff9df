import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import {
  capOutput,
  type JsonObject,
  type JsonSchema,
  type JsonValue,
  type Recorder,
  type ToolDescription,
  ToolgateError,
  type ToolResolver,
  toolNamePattern,
} from '@toolgate/core';
import { McpConnection } from './connection.js';
import { fingerprint, type ToolShape } from './fingerprint.js';
import { mapResult } from './map-result.js';
import { checkServerConfig, type McpServerConfig } from './server-config.js';
import { canRecordChanges, type ToolChange } from './tool-change.js';

/** What an {@link MCPResolver} is built with. */
export interface MCPResolverOptions {
  /** The cap on one output's JSON text, in characters, as for in-process tools. Default 100,000. */
  maxOutputChars?: number;
  /** Told about every changed or conflicting tool. */
  onChange?: (change: ToolChange) => void;
  /** Records every change when it has a `toolChanged` method (a ledger recorder, say). */
  recorder?: Pick<Recorder, 'toolChanged'>;
}

interface Entry {
  connection: McpConnection;
  remoteName: string;
  shape: ToolShape;
  /** Set while the listed shape differs from the approved one. */
  changed: boolean;
}

/**
 * Serves the tools of one or more MCP servers as a core `ToolResolver`. One long-lived session per
 * server; tool lists are cached and refreshed on `list_changed`. Two servers serving the same name
 * is an error at attach time (give one a `prefix`). A tool whose description or schema changes
 * after it was first listed is refused (TOOL_CHANGED) until {@link MCPResolver.approve}. Server
 * annotations are never read: a remote tool is never parallel-safe.
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
  readonly #connections = new Map<string, McpConnection>();
  readonly #entries = new Map<string, Entry>();
  readonly #approved = new Map<string, { print: string; shape: ToolShape }>();
  #recorderFailure: unknown;
  #closed = false;

  constructor(options: MCPResolverOptions = {}) {
    this.#options = options;
  }

  /** A resolver attached to every server in `servers`, in order; on any failure none stays running. */
  static async connect(
    servers: readonly McpServerConfig[],
    options: MCPResolverOptions = {},
  ): Promise<MCPResolver> {
    const resolver = new MCPResolver(options);
    try {
      for (const server of servers) await resolver.attach(server);
    } catch (error) {
      await resolver.close();
      throw error;
    }
    return resolver;
  }

  /**
   * Connects to a server and lists its tools. Rejects — and leaves nothing running — when the server
   * cannot be reached, or when one of its tools has the name of another server's tool.
   */
  async attach(config: McpServerConfig): Promise<this> {
    checkServerConfig(config);
    if (this.#connections.has(config.name)) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `an MCP server named "${config.name}" is already attached`,
      );
    }
    let attached = false;
    const connection: McpConnection = new McpConnection(config, (tools): Promise<void> => {
      if (attached) return this.#index(connection, tools);
      this.#checkConflicts(connection, tools);
      attached = true;
      return this.#index(connection, tools);
    });
    try {
      await connection.ready();
    } catch (error) {
      await connection.close();
      throw error;
    }
    this.#connections.set(config.name, connection);
    return this;
  }

  /** The names of the attached servers. */
  servers(): string[] {
    return [...this.#connections.keys()];
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

  /** The tool's description and schema as approved; never a `parallelSafe` (remote hints are not trusted). */
  async describe(name: string): Promise<ToolDescription | undefined> {
    const entry = this.#entries.get(name);
    if (!entry) return undefined;
    // A changed tool is described as approved: its new text never reaches a model before approval.
    const shape = entry.changed ? (this.#approved.get(name)?.shape ?? entry.shape) : entry.shape;
    return { name, description: shape.description, inputSchema: shape.inputSchema };
  }

  /**
   * Calls a remote tool and maps its result to a plain, capped value. Rejects with a ToolgateError:
   * TOOL_CHANGED, TRANSPORT_FAILED or TIMEOUT naming the server, or the remote tool's own error.
   */
  async call(name: string, parameters: JsonObject): Promise<JsonValue> {
    if (this.#closed)
      throw new ToolgateError('TRANSPORT_FAILED', 'this MCP resolver is closed; create a new one');
    this.#throwRecorderFailure();
    let entry = this.#entry(name);
    if (!entry.connection.open) {
      await entry.connection.ready();
      entry = this.#entry(name); // a reconnect lists the tools again
    }
    this.#throwRecorderFailure();
    if (entry.changed) {
      throw new ToolgateError(
        'TOOL_CHANGED',
        `tool "${name}" on MCP server "${entry.connection.name}" changed its description or schema ` +
          `since it was approved; it is refused until it is approved again (resolver.approve("${name}"))`,
      );
    }
    const result = await entry.connection.call(entry.remoteName, parameters);
    const output = mapResult(result, { server: entry.connection.name, tool: name });
    return capOutput(output, this.#options.maxOutputChars ?? 100_000);
  }

  /** Accepts a changed tool's current description and schema, so calls to it run again. */
  approve(name: string): void {
    const entry = this.#entries.get(name);
    if (!entry) throw unknownTool(name);
    this.#approved.set(name, { print: fingerprint(entry.shape), shape: entry.shape });
    entry.changed = false;
  }

  /** Ends every session and stops every child process. */
  async close(): Promise<void> {
    this.#closed = true;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    this.#entries.clear();
    await Promise.all(connections.map((connection) => connection.close()));
  }

  #entry(name: string): Entry {
    const entry = this.#entries.get(name);
    if (!entry) throw this.#withheldTool(name) ?? unknownTool(name);
    return entry;
  }

  /** The error for a tool a server listed but that is not served because it broke a limit. */
  #withheldTool(name: string): ToolgateError | undefined {
    for (const connection of this.#connections.values()) {
      const prefix = connection.config.prefix;
      if (prefix !== undefined && !name.startsWith(`${prefix}__`)) continue;
      const remoteName = prefix === undefined ? name : name.slice(prefix.length + 2);
      const reason = connection.withheld(remoteName);
      if (reason !== undefined) {
        return new ToolgateError(
          'UNKNOWN_TOOL',
          `tool "${name}" on MCP server "${connection.name}" is not served: ${reason}`,
        );
      }
    }
    return undefined;
  }

  #checkConflicts(connection: McpConnection, tools: readonly McpTool[]): void {
    for (const tool of tools) {
      const name = localName(connection, tool.name);
      const other = this.#entries.get(name);
      if (other && other.connection !== connection) {
        throw new ToolgateError(
          'INVALID_DEFINITION',
          `MCP servers "${other.connection.name}" and "${connection.name}" both serve a tool named "${name}"; ` +
            'give one of them a prefix (its tools are then served as prefix__name)',
        );
      }
    }
  }

  async #index(connection: McpConnection, tools: readonly McpTool[]): Promise<void> {
    const listed = new Set<string>();
    const changes: ToolChange[] = [];
    for (const tool of tools) {
      const name = localName(connection, tool.name);
      if (!toolNamePattern.test(name)) continue;
      const shape: ToolShape = {
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as JsonSchema,
      };
      const base = { server: connection.name, tool: name, remoteName: tool.name, after: shape };
      const existing = this.#entries.get(name);
      if (existing && existing.connection !== connection) {
        changes.push({ kind: 'conflicted', ...base, before: existing.shape });
        continue;
      }
      listed.add(name);
      const print = fingerprint(shape);
      const approved = this.#approved.get(name);
      if (approved === undefined) this.#approved.set(name, { print, shape });
      const changed = approved !== undefined && approved.print !== print;
      if (changed && !(existing?.changed && fingerprint(existing.shape) === print)) {
        changes.push({ kind: 'changed', ...base, before: approved.shape });
      }
      this.#entries.set(name, { connection, remoteName: tool.name, shape, changed });
    }
    for (const [name, entry] of this.#entries) {
      if (entry.connection === connection && !listed.has(name)) this.#entries.delete(name);
    }
    for (const change of changes) await this.#report(change);
  }

  async #report(change: ToolChange): Promise<void> {
    this.#options.onChange?.(change);
    const recorder = this.#options.recorder;
    if (!canRecordChanges(recorder)) return;
    try {
      await recorder.toolChanged(change);
    } catch (error) {
      this.#recorderFailure ??= error;
    }
  }

  #throwRecorderFailure(): void {
    if (this.#recorderFailure !== undefined) {
      throw new ToolgateError(
        'TOOL_FAILED',
        'the recorder failed to record a tool change; the run stops here',
        {
          cause: this.#recorderFailure,
        },
      );
    }
  }
}

function localName(connection: McpConnection, remoteName: string): string {
  const prefix = connection.config.prefix;
  return prefix === undefined ? remoteName : `${prefix}__${remoteName}`;
}

function unknownTool(name: string): ToolgateError {
  return new ToolgateError(
    'UNKNOWN_TOOL',
    `no attached MCP server serves a tool named ${JSON.stringify(name)}`,
  );
}
