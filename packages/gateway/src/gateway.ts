import { randomUUID } from 'node:crypto';
import { type Grant, type ToolDescription, ToolGate, ToolRegistry, type ToolResult } from '@toolgate/core';
import { LedgerRecorder, type LedgerStore } from '@toolgate/ledger';
import { MCPResolver } from '@toolgate/mcp-client';
import { CallsInFlight, passRequest, SessionAnswers } from './asking/index.js';
import { identityRecord } from './auth/index.js';
import { describeChange } from './change-notice.js';
import { clientGrant, clientGrants } from './client-grant.js';
import type { GatewayClient, GatewayConfig } from './config-types.js';
import { GatewayFleet } from './fleet/index.js';
import type { GatewayCallOptions, GatewayOptions } from './gateway-options.js';
import { durableBeforeOf, openLedger, removeIfEmpty } from './ledger-open.js';
import { limitedGrant, RateLimiter } from './limits/index.js';
import { approveAll, writeFirstLock } from './lock/approvals.js';
import { lockPathOf, readLock } from './lock/lock-file.js';
import { GatewayMetrics } from './ops/metrics.js';
import { recordConfigPolicy } from './record-policy.js';
import { reloadRefusal } from './reload-checks.js';
import { startFailure } from './start-failure.js';
import { concerns, listView, passingOn, SessionHub } from './surface/index.js';
import { type RunningTelemetry, startTelemetry } from './telemetry/index.js';

/**
 * The gateway: upstream MCP servers (through one `MCPResolver`) behind per-client grants, the
 * policy gate and a ledger. Every call goes grant → policy → upstream through one core `ToolGate`
 * (made once, for the gateway's lifetime; each call brings its client's grant and approver),
 * and is recorded (`tool.called`, `policy.decided`, `tool.returned`), as is every tool change an
 * upstream makes (`tool.changed`). A changed tool is withheld from every list and refused until
 * approved with the fingerprint of the change (the config's `approve`).
 *
 * @example
 * const gateway = await Gateway.start(await loadConfig('gateway.yaml'));
 * const tools = await gateway.toolsFor('desktop');
 */
export class Gateway {
  readonly resolver: MCPResolver;
  readonly registry: ToolRegistry;
  /** The ledger: a `FileStore`, or a `PostgresStore` for a `postgres://` ledger. */
  readonly store: LedgerStore;
  readonly recorder: LedgerRecorder;
  /** The calls under way on each upstream: whose user an upstream's own request goes to. */
  readonly callsInFlight = new CallsInFlight();
  /** The answers its clients' users gave for a session, remembered until it ends or a reload. */
  readonly sessionAnswers = new SessionAnswers();
  /** Calls and refusals counted, and call latencies, for `/metrics`. */
  readonly metrics = new GatewayMetrics();
  /** The connected client sessions, told about upstream list changes, resource updates and log messages. */
  readonly sessions: SessionHub;
  /** The one gate every call runs through; its policy is the config in force (a reload changes it). */
  readonly gate: ToolGate;
  /** Each client's calls a second and calls at once (its `rate_limit:`). */
  readonly limiter = new RateLimiter();
  /** With `fleet:`: the approvals and reviews this instance shares with the others on one database. */
  fleet: GatewayFleet | undefined;
  readonly #log: (line: string) => void;
  readonly #callIds: () => string;
  #config: GatewayConfig;
  #grants: Map<string, Grant>;
  #closed = false;
  /** The id of the call about to enter the gate, when the gateway recorded something of it first. */
  #nextCallId: string | undefined;
  #telemetry: RunningTelemetry | undefined;

  private constructor(
    config: GatewayConfig,
    parts: {
      resolver: MCPResolver;
      store: LedgerStore;
      recorder: LedgerRecorder;
      log: (line: string) => void;
      sessions: SessionHub;
    },
    options: GatewayOptions,
  ) {
    this.#config = config;
    this.resolver = parts.resolver;
    this.store = parts.store;
    this.recorder = parts.recorder;
    this.sessions = parts.sessions;
    this.registry = new ToolRegistry().setResolver(parts.resolver);
    this.#log = parts.log;
    this.#callIds = options.callIds ?? (() => randomUUID());
    this.#grants = clientGrants(config);
    this.gate = new ToolGate(this.registry, {
      policy: { decide: (request) => this.#config.policy.decide(request) },
      recorder: this.recorder,
      callIds: () => this.#takeCallId(),
      timeoutMs: Number.POSITIVE_INFINITY, // each call's budget is the config's in force (see callTool)
      ...(options.observer === undefined ? {} : { observer: options.observer }),
    });
  }

  /** Opens the ledger, connects every upstream, applies the config's approvals. On any failure nothing stays open. */
  static async start(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
    // spans over OTLP when `telemetry:` or the OTEL_* variables say so (the SDK loaded only then)
    const telemetry = options.observer === undefined ? await startTelemetry(config) : undefined;
    if (telemetry !== undefined) options = { ...options, observer: telemetry.observer };
    const store = await openLedger(config.ledger, { durability: config.durability });
    const recorder = new LedgerRecorder(store, {
      runId: options.runId ?? `gateway-${randomUUID()}`,
      durableBefore: durableBeforeOf(config.durability),
    });
    const log = options.log ?? stderrLog;
    let reviewed: Awaited<ReturnType<typeof readLock>>;
    try {
      reviewed = await readLock(lockPathOf(config.source));
    } catch (error) {
      await store.close();
      throw error;
    }
    const sessions = new SessionHub();
    let started: Gateway | undefined;
    const answer = (server: string, request: { method: string }, signal: AbortSignal) =>
      started === undefined
        ? Promise.reject(new Error('the gateway is still starting; nobody can be asked yet'))
        : passRequest(started, server, request, signal);
    let resolver: MCPResolver;
    try {
      resolver = await MCPResolver.connect(passingOn(config.servers, sessions, answer), {
        onListed: () => void sessions.listChanged('tools'),
        ...(reviewed === undefined ? {} : { reviewed, newTools: config.newTools }),
        recorder,
        onChange: (change) => log(describeChange(change, config.source)),
        approveHint: (tool) =>
          `toolgate-gateway approve ${tool} --config ${config.source}, then reload the gateway (SIGHUP) or restart it`,
      });
    } catch (error) {
      await store.close();
      await removeIfEmpty(store); // a failed start leaves no empty ledger behind
      throw startFailure(config, error);
    }
    const gateway = new Gateway(config, { resolver, store, recorder, log, sessions }, options);
    gateway.#telemetry = telemetry;
    sessions.view = (client, kind) => listView(gateway, client, kind);
    sessions.concerns = (client, server) => concerns(gateway, client, server);
    started = gateway;
    try {
      approveAll(resolver, config.approve, log);
      if (config.fleet !== undefined) {
        gateway.fleet = await GatewayFleet.start(config.fleet, {
          resolver,
          log,
          source: config.source,
          runId: recorder.runId,
        });
      }
      if (reviewed === undefined) await writeFirstLock(resolver, config.source, log);
      await recordConfigPolicy(recorder, config.policy);
      await recorder.record('gateway.started', 'gateway', {
        servers: config.servers.map((server) => server.name),
        clients: [...config.clients.keys()],
      });
    } catch (error) {
      await gateway.close();
      throw error;
    }
    return gateway;
  }

  /** The configuration in force. */
  get config(): GatewayConfig {
    return this.#config;
  }

  /** The client named `name`, or undefined. */
  client(name: string): GatewayClient | undefined {
    return this.#config.clients.get(name);
  }

  /** True when `client`'s grant names `tool`. */
  grants(client: string, tool: string): boolean {
    return this.#grants.get(client)?.allows(tool) === true;
  }

  /** The descriptions of the tools `client` may call, as approved: never a tool outside its grant, never a changed one. */
  async toolsFor(client: string): Promise<ToolDescription[]> {
    const names = this.resolver.servedNames().filter((name) => this.grants(client, name));
    return this.registry.descriptions(names);
  }

  /**
   * Calls a tool for a client: grant (the client's patterns), then policy (with `options.approver`
   * for `ask`), then the upstream. Never throws for anything the client sends; only a failing ledger
   * makes it reject (a call is never silently unrecorded).
   *
   * @example
   * await gateway.callTool({ client: 'desktop', tool: 'fs__read_file', parameters: { path: 'a' } }, { approver });
   */
  async callTool(
    { client, tool, parameters }: { client: string; tool: string; parameters: unknown },
    options: GatewayCallOptions = {},
  ): Promise<ToolResult> {
    const { identity, ...callOptions } = options;
    const approver = this.fleet?.approverFor(client, options.signal);
    if (approver !== undefined) callOptions.approver = approver; // an operator answers, at any instance
    const granted = this.#grants.get(client) ?? clientGrant(this.#config, client);
    const started = performance.now();
    const { grant, release } = limitedGrant({
      limiter: this.limiter,
      config: this.#config,
      client,
      tool,
      grant: granted,
    });
    try {
      if (identity !== undefined) {
        const callId = this.#callIds();
        await this.note('caller.identified', { callId, client, ...identityRecord(identity) });
        this.#nextCallId = callId; // taken by the gate, synchronously, as the call's id
      }
      const result = await this.gate.call(
        { tool, parameters },
        {
          ...callOptions,
          grant,
          timeoutMs: this.#config.timeoutMs ?? defaultTimeoutMs,
        },
      );
      this.metrics.call(client, result, performance.now() - started);
      return result;
    } finally {
      this.#nextCallId = undefined;
      release();
    }
  }

  /** Tells the operator something (stderr by default): an upstream that could not answer a list, say. */
  log(line: string): void {
    this.#log(line);
  }

  /** Records an event of the gateway itself (a client connected, a config reloaded). */
  async note(kind: string, payload: Record<string, string | number | boolean | string[]>): Promise<void> {
    await this.recorder.record(kind, 'gateway', payload);
  }

  /**
   * Takes a new configuration without dropping anyone: clients, grants, policy, approvals and the call
   * budget change; upstream servers and the ledger cannot change while running (restart for those).
   * A configuration that cannot be applied is refused whole and the old one stays in force.
   */
  async reload(next: GatewayConfig): Promise<void> {
    const refused = reloadRefusal(this.#config, next);
    if (refused !== undefined) throw refused;
    approveAll(this.resolver, next.approve, this.#log);
    this.#config = next;
    this.#grants = clientGrants(next);
    await recordConfigPolicy(this.recorder, next.policy);
    await this.note('config.reloaded', { clients: [...next.clients.keys()] });
    this.#log(`reloaded ${next.source}`);
  }

  /** Closes every upstream (no child process stays behind) and the ledger. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.fleet?.close();
      await this.resolver.close();
    } finally {
      await this.store.close();
      await this.#telemetry?.shutdown().catch(() => {}); // an unreachable collector never blocks a close
    }
  }

  #takeCallId(): string {
    const id = this.#nextCallId ?? this.#callIds();
    this.#nextCallId = undefined;
    return id;
  }
}

function stderrLog(line: string): void {
  process.stderr.write(`toolgate-gateway: ${line}\n`);
}

/** A call's budget when the config sets none: the gate's own default. */
const defaultTimeoutMs = 600_000;
