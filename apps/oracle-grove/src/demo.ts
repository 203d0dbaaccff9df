import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { FileStore, type LedgerEvent, readAll, readLedgerFile, steppingClock } from '@toolgate/ledger';
import { type RunSummary, runScenario } from './conductor.js';
import { type LoadedConfig, loadConfig } from './config.js';
import { type Model, OfflineModel } from './model.js';
import { type ToolSetup, toolSetup } from './tools.js';

/** What one demo run takes (the command line's options). */
export interface DemoOptions {
  seed?: string;
  turns?: number;
  trespass?: boolean;
  /** The ledger file to write. */
  ledger: string;
  /** Replace the ledger file if it exists (the default path is the demo's own scratch file). */
  overwrite?: boolean;
  /** A recorded ledger to replay with every tool switched off. */
  replay?: string;
  configDir?: string;
  model?: Model;
  env?: NodeJS.ProcessEnv;
  onEvent?: (event: LedgerEvent) => void;
  /**
   * Stops the run early (say, stdout was closed): after the agent in progress, `run.finished` is
   * written with the abort reason, and the ledger is flushed and released as usual.
   */
  signal?: AbortSignal;
}

/** What a demo run produced. */
export interface DemoResult {
  summary: RunSummary;
  ledger: string;
  head: { seq: number; hash: string };
  transport: ToolSetup['transport'];
  /** For a replay: whether the new ledger is byte-identical to the recording. */
  identical?: boolean;
  /** True when the signal stopped the run before its last turn. */
  stopped?: boolean;
}

/** The instant every demo ledger starts at: the demo's clock is injected, so reruns write the same bytes. */
export const demoEpoch = '2026-01-01T00:00:00.000Z';

/**
 * Runs the oracle-grove scenario once: in-process, over MCP when `MCP_SERVERS` / `MCP_ORACLE` is
 * set, or replayed from a recorded ledger with every tool and server switched off.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const config = await loadConfig(options.configDir);
  const recorded = options.replay ? await readRecording(options.replay) : undefined;
  const settings = recorded ? settingsOf(recorded, config) : undefined;
  const seed = settings?.seed ?? options.seed ?? config.scenario.seed;
  const turns = settings?.turns ?? options.turns ?? config.scenario.turns;
  const trespass = settings?.trespass ?? options.trespass ?? false;
  if (!Number.isInteger(turns) || turns < 1) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `--turns must be a whole number of at least 1, not ${turns}`,
    );
  }

  await prepareLedgerPath(options.ledger, options.overwrite ?? false, options.replay);
  const tools = await toolSetup({ env: options.env ?? process.env, recording: recorded?.events });
  // Durable at turn boundaries: the conductor flushes (one fsync) after every turn, rather than an
  // fsync per event; a crash loses at most the turn in progress. A replay flushes once, at the end.
  const store = await FileStore.open(options.ledger, { clock: steppingClock(demoEpoch), durability: 'none' });
  let summary: RunSummary;
  try {
    summary = await runScenario(config, {
      seed,
      turns,
      trespass,
      registry: tools.registry,
      gateOptions: (base) => tools.gateOptions(base),
      store,
      model: options.model ?? new OfflineModel(),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      // A replay is reproducible from its recording: one flush at the end is enough.
      checkpoints: recorded ? 'end' : 'turn',
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // A run stopped early made only some of the recorded calls; that is not a divergence.
    if (!options.signal?.aborted) tools.finish();
  } finally {
    await store.close();
    await tools.close();
  }
  const head = store.head();
  const result: DemoResult = {
    summary,
    ledger: options.ledger,
    head: { seq: head.seq - 1, hash: head.hash },
    transport: tools.transport,
  };
  if (options.signal?.aborted) result.stopped = true;
  else if (recorded) result.identical = (await readFile(options.ledger)).equals(recorded.bytes);
  return result;
}

async function readRecording(file: string): Promise<{ events: LedgerEvent[]; bytes: Buffer }> {
  const bytes = await readFile(file).catch(() => {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `--replay ${file}: cannot read it; give the path of a ledger the demo wrote`,
    );
  });
  // Read-only and verified as it reads: a recording that was tampered with is refused before replay,
  // and no writer lock is taken on it.
  return { events: await readAll(readLedgerFile(file)), bytes };
}

function settingsOf(recorded: { events: LedgerEvent[] }, config: LoadedConfig) {
  const started = recorded.events.find((event) => event.kind === 'run.started');
  if (!started) throw new ToolgateError('REPLAY_DIVERGED', 'the ledger to replay has no run.started event');
  const payload = started.payload as { seed: string; turns: number; cast: string[] };
  return {
    seed: payload.seed,
    turns: payload.turns,
    trespass: payload.cast.length > config.scenario.cast.length,
  };
}

async function prepareLedgerPath(file: string, overwrite: boolean, replay?: string): Promise<void> {
  if (replay && (await sameFile(file, replay))) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `--ledger and --replay are the same file (${file}); write the replay elsewhere`,
    );
  }
  // The demo's own scratch directory is made on demand; a path the user named must already have one.
  if (overwrite) await mkdir(dirname(file), { recursive: true });
  else {
    const parent = await stat(dirname(file)).catch(() => undefined);
    if (!parent?.isDirectory()) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `--ledger ${file}: the directory ${dirname(file)} does not exist; create it first, or pick another path`,
      );
    }
  }
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) return;
  if (!overwrite) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `ledger ${file} already exists; pass another --ledger or delete it`,
    );
  }
  await rm(file);
}

async function sameFile(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)]);
  return left !== undefined && right !== undefined && left.ino === right.ino && left.dev === right.dev;
}
