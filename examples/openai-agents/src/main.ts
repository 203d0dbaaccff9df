/**
 * toolgate inside an OpenAI Agents JS run, offline: a scripted model (Agents' own test double)
 * plays the LLM. The scribe is granted the oracle and write_file; policy asks before a write. The
 * model draws an omen, tries a shell it was never granted, and writes the omen down; a reviewer
 * approves the write. Every call — the refused one too — lands in a hash-chained ledger.
 */
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { oracleTool, writeFileTool } from '@toolgate/builtins';
import { RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { MemoryEnvironment } from '@toolgate/environment';
import { canonicalJson, LedgerRecorder, MemoryStore, readAll, verifyLedgerText } from '@toolgate/ledger';
import { agentsTools } from '@toolgate/openai-agents';

setTracingDisabled(true); // offline: no traces exported

const environment = new MemoryEnvironment();
const registry = new ToolRegistry().register(oracleTool()).register(writeFileTool(environment));
const policy = new RulePolicy({
  rules: [
    { tools: ['oracle'], decision: 'allow', reason: 'the oracle only reads' },
    { tools: ['write_file'], decision: 'ask', reason: 'writes need a reviewer' },
  ],
});
const store = new MemoryStore();
const gate = new ToolGate(registry, { policy, recorder: new LedgerRecorder(store, { runId: 'example' }) });

// The lines a user writes: a granted handle, its tools, an agent, a run with the run options.
const scribe = gate.forAgent({ name: 'scribe', tools: ['oracle', 'write_file'] });
const { tools, runOptions } = await agentsTools(scribe, { approvedBy: 'reviewer' });
const model = new ScriptedModel([
  [
    functionCall('oracle', { seed: 'moss on the north stones' }, { callId: 'c1' }),
    functionCall('shell', { command: 'cat /etc/passwd' }, { callId: 'c2' }),
  ],
  [functionCall('write_file', { path: 'omen.txt', content: 'the stones remember' }, { callId: 'c3' })],
  [assistantMessage('The omen is written down.')],
]);
const agent = new Agent({ name: 'scribe', instructions: 'Read the omens and keep them.', model, tools });

let result = await run(agent, 'What do the stones say? Write it down.', runOptions);
while (result.interruptions.length > 0) {
  for (const call of result.interruptions) {
    console.log(`approval asked: ${call.name} ${(call.rawItem as { arguments: string }).arguments}`);
    result.state.approve(call); // a reviewer's "yes", from your UI
  }
  result = await run(agent, result.state, runOptions);
}

console.log(`\nmodel: ${result.finalOutput}\n\nledger:`);
const events = await readAll(store.read());
for (const event of events) {
  const payload = event.payload as {
    tool?: string;
    decision?: string;
    reason?: string;
    error?: { code: string };
  };
  const detail = payload.error?.code ?? (payload.decision ? `${payload.decision} (${payload.reason})` : '');
  console.log(
    `  ${event.seq} ${event.kind.padEnd(14)} ${event.actor.padEnd(7)} ${payload.tool ?? ''} ${detail}`,
  );
}
const verified = await verifyLedgerText(events.map((event) => canonicalJson(event)).join('\n'));
console.log(`\nverified: ${verified.ok ? 'ok' : 'BROKEN'}, ${events.length} events`);
