import { type Approver, defineTool, RulePolicy, type ToolGate, ToolRegistry } from '@toolgate/core';
import { z } from 'zod';
import type { LedgerRecorder } from '../recorder.js';
import { brittle, chatty, oracle } from './tools.js';

/** A tool no rule allows. */
const secret = defineTool({
  name: 'secret',
  description: 'Reveals a secret.',
  input: z.object({}),
  run: () => ({ secret: 'moss is soft' }),
});

/** The live tools of the scenario. */
export function scenarioRegistry(): ToolRegistry {
  return new ToolRegistry().register(oracle).register(brittle).register(chatty).register(secret);
}

/** Allows oracle and chatty, asks about brittle, denies the rest. */
export const scenarioPolicy = new RulePolicy({
  rules: [
    { tools: ['oracle', 'chatty'], decision: 'allow', reason: 'harmless' },
    { tools: ['brittle'], decision: 'ask', reason: 'it breaks things' },
  ],
});

/** Approves breaking glass only. */
export const scenarioApprover: Approver = (request) =>
  request.parameters.why === 'glass' ? { approved: true, reason: 'glass is cheap' } : false;

/**
 * A run that exercises every path of the gate: a success, bad parameters, a truncated output, an
 * approved ask whose tool fails, a refused ask, a denial, an unknown tool, an ungranted tool, a
 * concurrent batch, a second agent, and events the app writes itself.
 */
export async function runScenario(gate: ToolGate, recorder: LedgerRecorder): Promise<unknown[]> {
  const teller = gate.forAgent({ name: 'teller', tools: ['oracle', 'brittle', 'chatty', 'secret', 'ghost'] });
  const critic = gate.forAgent({ name: 'critic', tools: ['oracle'] });
  const results: unknown[] = [];
  await recorder.record('run.started', 'system', { scenario: 'grove' });
  await recorder.describeTools('system', await teller.toolSchemas());
  recorder.setTurn(1);
  results.push(await teller.callTool('oracle', { seed: 'moss' }));
  results.push(await teller.callTool('oracle', { seed: 42 }));
  results.push(await teller.callTool('chatty', { words: 60 }));
  recorder.setTurn(2);
  results.push(await teller.callTool('brittle', { why: 'glass' }));
  results.push(await teller.callTool('brittle', { why: 'stone' }));
  results.push(await teller.callTool('secret', {}));
  results.push(await teller.callTool('ghost', {}));
  results.push(await teller.callTool('forbidden', {}));
  recorder.setTurn(3);
  results.push(
    await teller.callTools([
      { name: 'oracle', parameters: { seed: 'a' } },
      { name: 'oracle', parameters: { seed: 'bb' } },
    ]),
  );
  results.push(await critic.callTool('oracle', { seed: 'moss' }));
  results.push(await teller.callTool('oracle', { seed: 'moss' }));
  await recorder.record('run.ended', 'system', { calls: 12 });
  return results;
}
