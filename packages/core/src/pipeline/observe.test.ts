import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolGate } from '../gate.js';
import { RulePolicy } from '../policy.js';
import type { Recorder } from '../recorder.js';
import { ToolRegistry } from '../registry.js';
import { defineTool } from '../tool.js';
import type { CallObserver } from './observe.js';

const echo = defineTool({
  name: 'echo',
  description: 'Says it back.',
  input: z.object({ text: z.string().describe('what to say') }),
  run: ({ text }) => ({ text }),
  policySubject: () => ({}),
});

function watching() {
  const seen: unknown[] = [];
  const observer: CallObserver = {
    callStarted(call) {
      seen.push(['started', call]);
      return {
        decided: (decided) => seen.push(['decided', decided]),
        ended: (ending) => seen.push(['ended', ending]),
      };
    },
  };
  return { seen, observer };
}

describe("the gate's call observer", () => {
  it('sees a call arrive, its verdict and its end, with the receipt its recorder returned', async () => {
    const { seen, observer } = watching();
    const recorder: Recorder = {
      toolCalled() {},
      policyDecided() {},
      toolReturned: () => ({ runId: 'run-7', seq: 3 }),
    };
    const policy = new RulePolicy({
      default: 'allow',
      rules: [{ tools: ['echo'], decision: 'deny', reason: 'quiet' }],
    });
    const gate = new ToolGate(new ToolRegistry().register(echo), {
      observer,
      recorder,
      policy,
      callIds: () => 'c1',
    });
    const result = await gate.forAgent({ name: 'parrot', tools: ['echo'] }).callTool('echo', { text: 'hi' });
    expect(result.isError).toBe(true);
    expect(seen).toEqual([
      ['started', { callId: 'c1', agent: 'parrot', tool: 'echo', granted: ['echo'] }],
      [
        'decided',
        expect.objectContaining({
          allowed: false,
          verdict: expect.objectContaining({ decision: 'deny', rule: 0 }),
        }),
      ],
      [
        'ended',
        {
          isError: true,
          error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('quiet') },
          durationMs: expect.any(Number),
          ledger: { runId: 'run-7', seq: 3 },
        },
      ],
    ]);
  });

  it('sees a call outside the grant, which policy never decides', async () => {
    const { seen, observer } = watching();
    const gate = new ToolGate(new ToolRegistry().register(echo), { observer });
    await gate.forAgent({ name: 'parrot', tools: [] }).callTool('echo', { text: 'hi' });
    expect(seen.map((entry) => (entry as [string])[0])).toEqual(['started', 'ended']);
    expect((seen[1] as [string, { error: { code: string } }])[1].error.code).toBe('CAPABILITY_VIOLATION');
  });

  it('changes nothing about a call when the observer throws', async () => {
    const observer: CallObserver = {
      callStarted: () => ({
        decided: () => {
          throw new Error('tracer down');
        },
        ended: () => {
          throw new Error('tracer down');
        },
      }),
    };
    const gate = new ToolGate(new ToolRegistry().register(echo), { observer });
    const result = await gate.forAgent({ name: 'parrot', tools: ['echo'] }).callTool('echo', { text: 'hi' });
    expect(result).toMatchObject({ isError: false, output: { text: 'hi' } });
    const throwing = new ToolGate(new ToolRegistry().register(echo), {
      observer: {
        callStarted: () => {
          throw new Error('tracer down');
        },
      },
    });
    const again = await throwing
      .forAgent({ name: 'parrot', tools: ['echo'] })
      .callTool('echo', { text: 'hi' });
    expect(again).toMatchObject({ isError: false, output: { text: 'hi' } });
  });
});
