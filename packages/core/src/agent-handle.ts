import type { CallCheck } from './call-check.js';
import type { CallOptions } from './context.js';
import type { ToolGate } from './gate.js';
import type { Manifest } from './manifest.js';
import { narrowedManifest } from './narrow.js';
import { childPath, exactGrant, type Grant } from './pipeline/grant.js';
import { BufferedRecorder } from './pipeline/record.js';
import type { AgentDerivedRecord, LineageVia } from './recorder.js';
import type { ToolDescription } from './tool.js';
import type { ToolCall, ToolResult } from './tool-result.js';

/**
 * What an agent holds: the tools of one manifest, through the gate. Nothing a model asks for
 * throws here: a violation, an unknown tool, bad parameters, a denial or a failing tool all come
 * back as a {@link ToolResult} with `isError: true`.
 */
export class AgentHandle {
  readonly #gate: ToolGate;
  readonly manifest: Manifest;
  /** The manifest's tools as a grant: exactly these names. */
  readonly grant: Grant;
  /**
   * The handle this one was derived from with {@link AgentHandle.narrow}, or the one acting with
   * {@link AgentHandle.actingFor}; undefined for a root.
   */
  readonly parent: AgentHandle | undefined;
  /** The derivation still to record (at the first call), or its recording under way. */
  #lineage: AgentDerivedRecord | Promise<void> | undefined;

  /**
   * @param from set by {@link AgentHandle.narrow} (the parent) or {@link AgentHandle.actingFor}
   * (the handle acting, the grant it keeps and the lineage to record); a handle from `gate.forAgent`
   * has none.
   */
  constructor(
    gate: ToolGate,
    manifest: Manifest,
    from?: AgentHandle | { parent: AgentHandle; grant: Grant; lineage: AgentDerivedRecord },
  ) {
    this.#gate = gate;
    this.manifest = manifest;
    const parent = from instanceof AgentHandle ? from : from?.parent;
    this.grant =
      from !== undefined && !(from instanceof AgentHandle)
        ? from.grant
        : exactGrant(
            manifest.name,
            manifest.tools,
            parent === undefined
              ? {}
              : { agentPath: childPath(parent.grant.agentPath ?? parent.manifest.name, manifest.name) },
          );
    this.parent = parent;
    if (from !== undefined && !(from instanceof AgentHandle)) this.#lineage = from.lineage;
    else if (parent !== undefined)
      this.#lineage = { agent: manifest.name, parent: parent.manifest.name, tools: [...manifest.tools] };
  }

  /**
   * Calls one tool. `options.signal` cancels it (a CANCELLED error result, the tool's signal
   * aborted); `options.onProgress` receives the tool's progress reports while it runs;
   * `options.decision` answers an `ask` in place of the gate's approver.
   */
  callTool(name: string, parameters?: unknown, options?: CallOptions): Promise<ToolResult> {
    if (this.#lineage !== undefined)
      return this.recordLineage().then(() => this.callTool(name, parameters, options));
    return this.#gate.run({ grant: this.grant, tool: name, parameters, options });
  }

  /**
   * The gate's verdict on a call without making it: grant, resolution, validation and policy.
   * Never runs the tool, never asks the approver, records nothing — except, with `options.pending`
   * (`{ id, askedOf }`: the framework's tool call id, who is asked), an `ask` put to an approver
   * that answers later (a framework's approval UI), recorded as it is put (`policy.asked`). An `ask` verdict says an approval is needed: make the call with
   * `options.decision`, or let the gate's approver answer.
   *
   * @example
   * const verdict = await handle.check('write_file', { path: 'notes.md', content: '…' });
   * if (verdict.status === 'ask') {
   *   const approved = await askTheUser(verdict.reason);
   *   await handle.callTool('write_file', parameters, { decision: { approved, by: 'user' } });
   * }
   */
  check(
    name: string,
    parameters?: unknown,
    options?: { pending?: { id: string; askedOf: string } },
  ): Promise<CallCheck> {
    const pending = options?.pending;
    if (pending === undefined) return this.#gate.check(this.grant, name, parameters);
    // a derived agent's ask is recorded after its derivation, as its calls are
    return this.recordLineage().then(() => this.#gate.check(this.grant, name, parameters, pending));
  }

  /**
   * A handle whose grant is a subset of this one's, for a subagent: it can only narrow. Its name
   * is `name`, or `<this name>/sub`. A tool this handle is not granted is a programming error,
   * thrown here (CAPABILITY_VIOLATION). The derivation is recorded (`agentDerived`) once, when the
   * new handle makes its first call, so an unused handle writes nothing.
   *
   * @example
   * const critic = artist.narrow(['read_file'], 'critic');
   */
  narrow(tools: readonly string[], name?: string): AgentHandle {
    return new AgentHandle(this.#gate, narrowedManifest(this.manifest, tools, name), this);
  }

  /**
   * This agent, with its own name and grant, acting for `parent` in one step of an agent
   * framework's run: a handoff from `parent` to it, or `parent`'s call of it as a tool. Its calls
   * are this handle's calls; before the first (or with `recordLineage()`, at once)
   * the ledger records the lineage: `agent.derived` with `parent` and `via`, after this handle's own
   * derivation when it has one. For adapters; an application has no need of it.
   *
   * @example
   * const clerkNow = clerk.actingFor('triage', { kind: 'handoff', tool: 'transfer_to_clerk', callId: 't2' });
   */
  actingFor(parent: string, via: LineageVia): AgentHandle {
    const lineage: AgentDerivedRecord = {
      agent: this.manifest.name,
      parent,
      tools: [...this.manifest.tools],
      via: { ...via },
    };
    return new AgentHandle(this.#gate, this.manifest, { parent: this, grant: this.grant, lineage });
  }

  /**
   * Records this handle's derivation, and its ancestors' first, unless already recorded. Calls do
   * this themselves; nothing else needs to.
   * @internal
   */
  recordLineage(): Promise<void> {
    const lineage = this.#lineage;
    if (lineage === undefined) return Promise.resolve();
    if (lineage instanceof Promise) return lineage;
    const recording = (async () => {
      await this.parent?.recordLineage();
      await this.#gate.recorder.agentDerived?.(lineage);
    })();
    this.#lineage = recording;
    recording.then(
      () => {
        this.#lineage = undefined;
      },
      () => {
        this.#lineage = lineage; // recorded nothing: try again at the next call
      },
    );
    return recording;
  }

  /**
   * Calls the tools of one model turn. They run concurrently only when every permitted call (granted
   * and known) is parallel-safe with its parameters; otherwise one after another. Results, and the
   * records of a concurrent batch, come back in the model's order. `options.signal` cancels every
   * call still running, and every call not yet started (each ends CANCELLED and is recorded). A
   * call with `options` of its own uses those instead of the batch's.
   */
  async callTools(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolResult[]> {
    if (this.#lineage !== undefined) await this.recordLineage();
    if (!(await this.#allParallelSafe(calls))) {
      const results: ToolResult[] = [];
      for (const call of calls)
        results.push(await this.callTool(call.name, call.parameters, call.options ?? options));
      return results;
    }
    const buffers = calls.map(() => new BufferedRecorder());
    const results = await Promise.all(
      calls.map((call, index) =>
        this.#gate.run({
          grant: this.grant,
          tool: call.name,
          parameters: call.parameters,
          recorder: buffers[index]!,
          options: call.options ?? options,
        }),
      ),
    );
    for (const buffer of buffers) await buffer.flushTo(this.#gate.recorder);
    return results;
  }

  /** True when some call will run and every one that will is parallel-safe. */
  async #allParallelSafe(calls: readonly ToolCall[]): Promise<boolean> {
    let permitted = false;
    for (const call of calls) {
      if (!this.grant.allows(call.name)) continue;
      const tool = this.#gate.registry.get(call.name);
      if (tool) {
        if (!tool.isParallelSafe(call.parameters)) return false;
        permitted = true;
      } else if (await this.#gate.registry.has(call.name)) {
        return false; // a remote tool's read-only hint is not trusted
      }
    }
    // a batch of refusals gains nothing from running concurrently; one at a time, a replay
    // (whose tools are all remote, so never concurrent) goes the same way and reads the same durations
    return permitted;
  }

  /** The model-facing descriptions and JSON Schemas of exactly the granted tools that exist. */
  toolSchemas(): Promise<ToolDescription[]> {
    return this.#gate.registry.descriptions(this.manifest.tools);
  }

  /** The `AVAILABLE TOOLS` prompt block, or `''` when the agent is granted nothing. */
  async availableToolsBlock(): Promise<string> {
    if (this.manifest.tools.length === 0) return '';
    const lines = await this.#gate.registry.describe(this.manifest.tools);
    return lines === '' ? '' : `AVAILABLE TOOLS\n${lines}`;
  }
}
