import { ToolGate } from '@toolgate/core';
import { steppingClock } from '../chain/clock.js';
import { FileStore } from '../file/file-store.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { runScenario, scenarioApprover, scenarioPolicy, scenarioRegistry } from './scenario.js';
import { counter } from './tools.js';

/** Text that would run script if the page ever parsed ledger content as HTML. */
export const hostileSeed = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

/** Opens a ledger file for writing with the scenario's gate: the real writer a run would use. */
export async function openScenarioWriter(path: string, runId = 'grove-1') {
  const store = await FileStore.open(path, { clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId });
  const gate = new ToolGate(scenarioRegistry(), {
    policy: scenarioPolicy,
    approver: scenarioApprover,
    recorder,
    callIds: counter(`${runId}-call`),
  });
  return { store, recorder, gate };
}

/**
 * Writes a ledger like the demo's `--trespass` run through the real gate, recorder and file store:
 * allowed calls, an approved ask whose tool fails, a refused ask, a denial, a trespasser refused
 * for want of a grant, a second agent, and a call and a note holding {@link hostileSeed}. Two runs.
 */
export async function writeViewerLedger(path: string) {
  const { store, recorder, gate } = await openScenarioWriter(path);
  await runScenario(gate, recorder);
  const trespasser = gate.forAgent({ name: 'trespasser', tools: [] });
  await trespasser.callTool('oracle', { seed: 'moss' });
  await gate.forAgent({ name: 'critic', tools: ['oracle'] }).callTool('oracle', { seed: hostileSeed });
  await recorder.record('note.written', 'system', { text: hostileSeed });
  const second = new LedgerRecorder(store, { runId: 'grove-2' });
  await second.record('run.started', 'system', { scenario: 'second' });
  const events = await readAll(store.read());
  await store.close();
  return events;
}
