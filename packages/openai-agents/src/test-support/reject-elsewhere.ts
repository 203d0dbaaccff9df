/**
 * The answering process of the resume test, run as a new Node process:
 * `reject-elsewhere.ts live|replay <ledger file> <saved state file> [<recorded ledger file>]`.
 * It restores the run state the asking process saved as JSON, rejects the pending call, runs the
 * agent on, and prints what the model was told as one JSON line.
 */
import { RunState, run } from '@openai/agents';
import { liveSetup, processOn, readText, replaySetup } from './clerk.js';
import { ran, toolOutputsSent } from './fixtures.js';

const [role, file, stateFile, recorded] = process.argv.slice(2);
if ((role !== 'live' && role !== 'replay') || !file || !stateFile || (role === 'replay' && !recorded)) {
  console.error('usage: reject-elsewhere.ts live|replay <ledger file> <state file> [<recorded ledger>]');
  process.exit(2);
}
const replaying = role === 'replay' ? await replaySetup(recorded!) : undefined;
const answering = await processOn(file, replaying?.setup ?? liveSetup());
const state = answering.gated.resume(await RunState.fromString(answering.agent, readText(stateFile)));
state.reject(state.getInterruptions()[0]!);
const second = await run(answering.agent, state, answering.gated.runOptions);
await answering.store.close();
replaying?.replay.assertComplete();
const sent = toolOutputsSent(answering.model, 0).get('c1') as { text: string };
console.log(JSON.stringify({ output: second.finalOutput, sent, wireRuns: ran.wire, pid: process.pid }));
