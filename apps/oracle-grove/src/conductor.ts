import { createHash } from 'node:crypto';
import {
  messageOf,
  type Recorder,
  ToolGate,
  type ToolGateOptions,
  ToolgateError,
  type ToolRegistry,
} from '@toolgate/core';
import { type LedgerEvent, LedgerRecorder, type LedgerStore } from '@toolgate/ledger';
import { gateManifest } from './agent-manifest.js';
import { type AgentAction, handlers, textOf } from './agents.js';
import type { LoadedConfig } from './config.js';
import type { Model } from './model.js';

/** What one run of the scenario takes. Every input that is not a pure function of the run is here. */
export interface RunOptions {
  seed: string;
  turns: number;
  /** Add the optional cast (the trespasser). */
  trespass: boolean;
  /** Where the tools live: in-process, over MCP, or a replayed ledger. */
  registry: ToolRegistry;
  /** The gate's options, given the run's recorder and call ids (a replay swaps in recorded decisions). */
  gateOptions?: (base: GateBase) => ToolGateOptions;
  /**
   * The gate's clock for `durationMs`. Default: one that steps 1 ms per reading, so every call
   * lasts 1 ms and the in-process, MCP and replayed ledgers stay byte-identical.
   */
  clock?: () => number;
  store: LedgerStore;
  model: Model;
  /** Called with every event as it is written. */
  onEvent?: (event: LedgerEvent) => void;
  /**
   * When the ledger is flushed: after every `turn` (the default; a crash loses at most the turn in
   * progress) or only at the `end` (for a replay, which can simply be run again).
   */
  checkpoints?: 'turn' | 'end';
  /** Stops the run after the agent in progress; `run.finished` records the abort reason. */
  signal?: AbortSignal;
}

/** What the conductor hands `gateOptions`: the run's recorder, call ids and clock. */
export interface GateBase {
  recorder: Recorder;
  callIds: () => string;
  clock: () => number;
}

/** What a run did, for the summary line. */
export interface RunSummary {
  runId: string;
  turns: number;
  events: number;
  toolCalls: number;
  refusals: number;
  failures: number;
  reason: string;
}

const recentEvents = 6;

/** The run id: a pure function of the scenario and seed, so a rerun writes the same ledger. */
export function runIdFor(title: string, seed: string): string {
  return `grove-${createHash('sha256').update(`${title}\u0000${seed}`, 'utf8').digest('hex').slice(0, 12)}`;
}

/**
 * Runs the cast in order for the given turns, writing `run.started`, a genesis `world.observed`,
 * every agent's events (and its tool calls, through the gate) and `run.finished`. An agent that
 * fails has its failure recorded as `agent.failed` and the run goes on; a budget stops the run
 * cleanly with the reason recorded.
 */
export async function runScenario(config: LoadedConfig, options: RunOptions): Promise<RunSummary> {
  const { scenario, agents } = config;
  const runId = runIdFor(scenario.title, options.seed);
  const counts = { toolCalls: 0, refusals: 0, failures: 0, events: 0 };
  const store = observed(options.store, (event) => {
    counts.events++;
    if (event.kind === 'tool.called') counts.toolCalls++;
    if (isRefusal(event)) counts.refusals++;
    options.onEvent?.(event);
  });
  const recorder = new LedgerRecorder(store, { runId });
  let calls = 0;
  let tick = 0;
  const base: GateBase = {
    recorder,
    callIds: () => `call-${calls++}`,
    clock: options.clock ?? (() => tick++),
  };
  const gate = new ToolGate(options.registry, options.gateOptions ? options.gateOptions(base) : base);
  const cast = [...scenario.cast, ...(options.trespass ? scenario.optionalCast : [])];
  const log: LedgerEvent[] = [];
  const write = async (kind: string, actor: string, payload: AgentAction['payload']) => {
    log.push(await recorder.record(kind, actor, payload));
  };

  await write('run.started', 'conductor', {
    title: scenario.title,
    goal: scenario.goal,
    seed: options.seed,
    turns: options.turns,
    cast,
    model: options.model.name,
  });
  const granted = [...new Set(cast.flatMap((name) => agents.get(name)?.tools ?? []))];
  // What the model is told: name, description, schema. Whether a tool is parallel-safe is a local
  // fact (a remote server's hint is not trusted), so it stays out and the record is the same on
  // every transport.
  const described = await options.registry.descriptions(granted);
  await recorder.describeTools(
    'conductor',
    described.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  );
  await write('world.observed', 'genesis', { text: scenario.genesis.replaceAll('{seed}', options.seed) });

  let reason = `completed ${options.turns} turn${options.turns === 1 ? '' : 's'}`;
  let turn = 0;
  run: for (turn = 1; turn <= options.turns; turn++) {
    if (turn > scenario.budget.maxTurns) {
      reason = `turn budget of ${scenario.budget.maxTurns} reached`;
      break;
    }
    recorder.setTurn(turn);
    for (const name of cast) {
      if (options.signal?.aborted) {
        reason = `stopped early: ${String(options.signal.reason)}`;
        break run;
      }
      if (counts.events >= scenario.budget.maxEvents) {
        reason = `event budget of ${scenario.budget.maxEvents} reached`;
        break run;
      }
      const manifest = agents.get(name)!;
      const subscribed = new Set(manifest.subscribes ?? []);
      const scene = log.findLast((event) => event.kind === 'world.observed');
      try {
        const handler = handlers[manifest.handler ?? 'generic'];
        if (!handler)
          throw new ToolgateError(
            'INVALID_DEFINITION',
            `agent "${name}" names unknown handler "${manifest.handler}"`,
          );
        const action = await handler({
          manifest,
          tools: gate.forAgent(gateManifest(manifest)),
          model: options.model,
          recent: log.filter((event) => subscribed.has(event.kind)).slice(-recentEvents),
          scene: scene ? textOf(scene) : '',
        });
        if (!(manifest.emits ?? []).includes(action.kind)) {
          throw new ToolgateError('CAPABILITY_VIOLATION', `agent "${name}" may not emit "${action.kind}"`);
        }
        await write(action.kind, name, action.payload);
      } catch (error) {
        counts.failures++;
        const code = ToolgateError.is(error) ? error.code : 'TOOL_FAILED';
        await write('agent.failed', name, { error: { code, message: messageOf(error) } });
      }
    }
    if (options.checkpoints !== 'end') await store.flush(); // a crash loses at most the turn in progress
  }
  recorder.setTurn(Math.min(turn, options.turns));
  const summary = { runId, turns: Math.min(turn - 1, options.turns), ...counts, reason };
  await write('run.finished', 'conductor', {
    reason,
    turns: summary.turns,
    toolCalls: counts.toolCalls,
    refusals: counts.refusals,
    failures: counts.failures,
  });
  await store.flush();
  return { ...summary, events: counts.events };
}

/** True for a `tool.returned` that the grant or policy refused. */
export function isRefusal(event: LedgerEvent): boolean {
  if (event.kind !== 'tool.returned') return false;
  const code = (event.payload as { error?: { code?: string } } | null)?.error?.code;
  return code === 'CAPABILITY_VIOLATION' || code === 'PERMISSION_DENIED';
}

/** Wraps a store so `onAppended` sees every event as it is written. */
function observed(store: LedgerStore, onAppended: (event: LedgerEvent) => void): LedgerStore {
  return {
    head: () => store.head(),
    read: (options) => store.read(options),
    follow: (options) => store.follow(options),
    runs: () => store.runs(),
    treeHead: () => store.treeHead(),
    flush: () => store.flush(),
    close: () => store.close(),
    append: async (draft) => {
      const event = await store.append(draft);
      onAppended(event);
      return event;
    },
  };
}
