import type { CallOptions } from './context.js';
import type { ToolCall, ToolGate, ToolResult } from './gate.js';
import type { Manifest } from './manifest.js';
import type { PolicyDecidedRecord, Recorder, ToolCalledRecord, ToolReturnedRecord } from './recorder.js';
import type { ToolDescription } from './tool.js';

/**
 * What an agent holds: the tools of one manifest, through the gate. Nothing a model asks for
 * throws here: a violation, an unknown tool, bad parameters, a denial or a failing tool all come
 * back as a {@link ToolResult} with `isError: true`.
 */
export class AgentHandle {
  readonly #gate: ToolGate;
  readonly manifest: Manifest;

  constructor(gate: ToolGate, manifest: Manifest) {
    this.#gate = gate;
    this.manifest = manifest;
  }

  /**
   * Calls one tool. `options.signal` cancels it (a CANCELLED error result, the tool's signal
   * aborted); `options.onProgress` receives the tool's progress reports while it runs.
   */
  callTool(name: string, parameters?: unknown, options?: CallOptions): Promise<ToolResult> {
    return this.#gate.run(this.manifest, name, parameters, this.#gate.recorder, options);
  }

  /**
   * Calls the tools of one model turn. They run concurrently only when every permitted call (granted
   * and known) is parallel-safe with its parameters; otherwise one after another. Results, and the
   * records of a concurrent batch, come back in the model's order. `options.signal` cancels every
   * call still running, and every call not yet started (each ends CANCELLED and is recorded).
   */
  async callTools(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolResult[]> {
    if (!(await this.#allParallelSafe(calls))) {
      const results: ToolResult[] = [];
      for (const call of calls) results.push(await this.callTool(call.name, call.parameters, options));
      return results;
    }
    const buffers = calls.map(() => new BufferedRecorder());
    const results = await Promise.all(
      calls.map((call, index) =>
        this.#gate.run(this.manifest, call.name, call.parameters, buffers[index]!, options),
      ),
    );
    for (const buffer of buffers) await buffer.flushTo(this.#gate.recorder);
    return results;
  }

  async #allParallelSafe(calls: readonly ToolCall[]): Promise<boolean> {
    for (const call of calls) {
      if (!this.manifest.tools.includes(call.name)) continue;
      const tool = this.#gate.registry.get(call.name);
      if (tool) {
        if (!tool.isParallelSafe(call.parameters)) return false;
      } else if (await this.#gate.registry.has(call.name)) {
        return false; // a remote tool's read-only hint is not trusted
      }
    }
    return true;
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

/** Holds one call's records so a concurrent batch can be recorded in the model's order. */
class BufferedRecorder implements Recorder {
  readonly #writes: ((recorder: Recorder) => void | Promise<void>)[] = [];
  toolCalled(record: ToolCalledRecord) {
    this.#writes.push((recorder) => recorder.toolCalled(record));
  }
  policyDecided(record: PolicyDecidedRecord) {
    this.#writes.push((recorder) => recorder.policyDecided(record));
  }
  toolReturned(record: ToolReturnedRecord) {
    this.#writes.push((recorder) => recorder.toolReturned(record));
  }
  async flushTo(recorder: Recorder): Promise<void> {
    for (const write of this.#writes) await write(recorder);
  }
}
