import { readFileSync } from 'node:fs';
import { Agent } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { ToolGate, type ToolGateOptions, type ToolRegistry } from '@toolgate/core';
import {
  FileStore,
  LedgerRecorder,
  ReplaySession,
  readAll,
  readLedgerFile,
  replayRegistry,
  steppingClock,
} from '@toolgate/ledger';
import { agentsTools } from '../agents-tools.js';
import { counter, policy, registry } from './fixtures.js';

/** The agent the resume scenario runs: a clerk granted `wire`, which policy sends to `ask`. */
export const clerk = { name: 'clerk', tools: ['wire'] };

/** Where a process's gate gets its tools and options: the live tools, or a replay of a ledger. */
export type Setup = (recorder: LedgerRecorder) => { tools: ToolRegistry; options: ToolGateOptions };

/** The live setup: the real `wire` tool, the policy, counted call ids and a ticking clock. */
export function liveSetup(): Setup {
  let tick = 0;
  return (recorder) => ({
    tools: registry(),
    options: { recorder, policy, callIds: counter(), clock: () => (tick += 1) },
  });
}

/** The replay setup: a strict replay of the ledger file `recorded` (no tool runs, no policy asked). */
export async function replaySetup(recorded: string): Promise<{ setup: Setup; replay: ReplaySession }> {
  const replay = new ReplaySession(await readAll(readLedgerFile(recorded)), { mode: 'strict' });
  const setup: Setup = (recorder) => ({
    tools: replayRegistry(replay),
    options: replay.gateOptions({ recorder, callIds: counter() }),
  });
  return { setup, replay };
}

/** Everything one process holds: its own ledger writer, gate, tools, model and agent. */
export async function processOn(file: string, setup: Setup) {
  const store = await FileStore.open(file, { clock: steppingClock() });
  const { tools, options } = setup(new LedgerRecorder(store, { runId: 'agents-resume' }));
  const gated = await agentsTools(new ToolGate(tools, options).forAgent(clerk), { approvedBy: 'alice' });
  const model = new ScriptedModel([
    [functionCall('wire', { to: 'mallory', amount: 500 }, { callId: 'c1' })],
    [assistantMessage('not sent')],
  ]);
  const agent = new Agent({ name: 'clerk', instructions: 'Pay.', model, tools: gated.tools });
  return { store, gated, model, agent };
}

/** The text of a file, for a script reading the state another process saved. */
export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
