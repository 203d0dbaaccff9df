import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, RunState, run } from '@openai/agents';
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
import { afterAll, describe, expect, it } from 'vitest';
import { agentsTools } from './agents-tools.js';
import { counter, policy, ran, registry, toolOutputsSent } from './test-support/fixtures.js';

const directory = mkdtempSync(join(tmpdir(), 'toolgate-agents-resume-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const clerk = { name: 'clerk', tools: ['wire'] };

type Setup = (recorder: LedgerRecorder) => { tools: ToolRegistry; options: ToolGateOptions };

/** Everything one process holds: its own ledger writer, gate, tools, model and agent. */
async function processOn(file: string, setup: Setup) {
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

/** Asks in one process and saves the state as JSON; rejects in a fresh one, from that JSON. */
async function askThenRejectElsewhere(file: string, setup: Setup) {
  const asking = await processOn(file, setup);
  const first = await run(asking.agent, 'pay mallory', asking.gated.runOptions);
  expect(first.interruptions).toHaveLength(1);
  const saved = first.state.toString();
  await asking.store.close();

  const answering = await processOn(file, setup);
  const state = answering.gated.resume(await RunState.fromString(answering.agent, saved));
  state.reject(state.getInterruptions()[0]!);
  const second = await run(answering.agent, state, answering.gated.runOptions);
  await answering.store.close();
  return {
    output: second.finalOutput,
    sent: toolOutputsSent(answering.model, 0).get('c1') as { text: string },
  };
}

describe('an Agents run serialised, resumed elsewhere with fresh tools, and rejected', () => {
  it('records the rejection with the call and its arguments, and a replay writes the same bytes', async () => {
    const file = join(directory, 'live.jsonl');
    const before = ran.wire;
    let tick = 0;
    const live = await askThenRejectElsewhere(file, (recorder) => ({
      tools: registry(),
      options: { recorder, policy, callIds: counter(), clock: () => (tick += 1) },
    }));
    expect(ran.wire).toBe(before);
    expect(live.output).toBe('not sent');
    const events = await readAll(readLedgerFile(file));
    expect(events.map((event) => event.kind)).toEqual(['tool.called', 'policy.decided', 'tool.returned']);
    expect(events[0]?.payload).toMatchObject({ tool: 'wire', parameters: { to: 'mallory', amount: 500 } });
    expect(events[1]?.payload).toMatchObject({
      verdict: { decision: 'ask' },
      decision: 'deny',
      reason: 'money leaves; not approved by alice',
    });
    expect(JSON.parse(live.sent.text)).toMatchObject({ code: 'PERMISSION_DENIED' });

    const replay = new ReplaySession(events, { mode: 'strict' });
    const copy = join(directory, 'replayed.jsonl');
    const replayed = await askThenRejectElsewhere(copy, (recorder) => ({
      tools: replayRegistry(replay),
      options: replay.gateOptions({ recorder, callIds: counter() }),
    }));
    expect(replay.divergences).toEqual([]);
    expect(replayed).toEqual(live);
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(file, 'utf8'));
  });
});
