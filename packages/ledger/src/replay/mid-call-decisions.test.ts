import { defineTool, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryStore } from '../memory-store.js';
import { LedgerRecorder } from '../recorder.js';
import { readAll } from '../store.js';
import { counter } from '../testing/tools.js';
import { replayRegistry } from './registry.js';
import { ReplaySession } from './session.js';

// A tool that asks policy about a host it meets while running, as fetch does for a redirect hop.
const hop = defineTool({
  name: 'hop',
  description: 'Follows a redirect.',
  input: z.object({ to: z.string().describe('the host redirected to') }),
  policySubject: () => ({ hosts: ['start.test'] }),
  run: async ({ to }, context) => ({ allowed: (await context.authorize({ hosts: [to] })).allowed }),
});
const policy = new RulePolicy({ default: 'allow', rules: [{ hosts: ['denied.test'], decision: 'deny' }] });

describe('replaying a call that asked policy while it ran', () => {
  it('compares the replayed call with its own recorded decision, not the one made mid-call', async () => {
    const store = new MemoryStore();
    const recorder = new LedgerRecorder(store, { runId: 'hops' });
    const gate = new ToolGate(new ToolRegistry().register(hop), { policy, recorder, callIds: counter() });
    const agent = gate.forAgent({ name: 'walker', tools: ['hop'] });
    const live = await agent.callTool('hop', { to: 'denied.test' });
    const events = await readAll(store.read());
    const decided = events.filter((event) => event.kind === 'policy.decided');
    expect(decided.map((event) => (event.payload as { decision: string }).decision)).toEqual([
      'allow',
      'deny',
    ]);

    const replay = new ReplaySession(events, { mode: 'strict' });
    const replayGate = new ToolGate(
      replayRegistry(replay),
      replay.gateOptions({
        recorder: new LedgerRecorder(new MemoryStore(), { runId: 'hops' }),
        callIds: counter(),
      }),
    );
    const replayed = await replayGate
      .forAgent({ name: 'walker', tools: ['hop'] })
      .callTool('hop', { to: 'denied.test' });
    expect(replayed.isError === false && replayed.output).toEqual(live.isError === false && live.output);
    expect(replay.divergences).toEqual([]);
  });
});
