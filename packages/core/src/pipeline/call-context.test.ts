import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolContext, ToolProgressEvent } from '../context.js';
import { ToolGate } from '../gate.js';
import { RulePolicy } from '../policy.js';
import { ToolRegistry } from '../registry.js';
import { defineTool } from '../tool.js';

const policy = new RulePolicy({
  default: 'allow',
  rules: [{ tools: ['probe'], hosts: ['bad.test'], decision: 'deny', reason: 'bad.test is off limits' }],
});

describe('the context a tool runs with', () => {
  it('works taken apart: signal, progress, authorize and judge read off the context and called alone', async () => {
    let kept: ToolContext['reportProgress'] | undefined;
    const probe = defineTool({
      name: 'probe',
      description: 'Takes its context apart.',
      input: z.object({}),
      policySubject: () => ({}),
      run: async (_parameters, context: ToolContext) => {
        const { signal, reportProgress, authorize, judge, callId, agent, deadline } = context;
        reportProgress({ progress: 1, total: 2, message: 'half' });
        kept = reportProgress;
        const bad = await authorize({ hosts: ['bad.test'] });
        const good = judge({ hosts: ['good.test'] });
        return {
          aborted: signal.aborted,
          same: context.signal === signal && context.reportProgress === reportProgress,
          bad: bad.allowed,
          good: good.decision,
          callId,
          agent,
          finite: Number.isFinite(deadline),
        };
      },
    });
    const reports: ToolProgressEvent[] = [];
    const gate = new ToolGate(new ToolRegistry().register(probe), { policy, callIds: () => 'call-1' });
    const result = await gate
      .forAgent({ name: 'taker', tools: ['probe'] })
      .callTool('probe', {}, { onProgress: (report) => void reports.push(report) });
    expect(result).toMatchObject({
      isError: false,
      output: {
        aborted: false,
        same: true,
        bad: false,
        good: 'allow',
        callId: 'call-1',
        agent: 'taker',
        finite: true,
      },
    });
    expect(reports).toEqual([{ callId: 'call-1', tool: 'probe', progress: 1, total: 2, message: 'half' }]);
    kept?.({ progress: 2, total: 2 });
    expect(reports).toHaveLength(1); // a report after the call ended is ignored
  });

  it('aborts the signal a tool read before its budget ran out', async () => {
    let seen: AbortSignal | undefined;
    const wait = defineTool({
      name: 'wait',
      description: 'Waits for its signal.',
      input: z.object({}),
      timeoutMs: 50,
      run: (_parameters, context: ToolContext) => {
        seen = context.signal;
        return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve('stopped')));
      },
    });
    const gate = new ToolGate(new ToolRegistry().register(wait));
    const result = await gate.forAgent({ name: 'waiter', tools: ['wait'] }).callTool('wait', {});
    expect(result).toMatchObject({ isError: true, error: { code: 'TIMEOUT' } });
    expect(seen?.aborted).toBe(true);
  });

  it('tells a tool the deadline its budget started with, read late or early, after a wait for the recorder or none', async () => {
    const later = () => new Promise<void>((resolve) => setTimeout(resolve, 30));
    const deadlines = defineTool({
      name: 'deadlines',
      description: 'Reads its deadline twice, a while apart.',
      input: z.object({ wait: z.boolean().describe('wait before the first read') }),
      run: async ({ wait }, context: ToolContext) => {
        if (wait) await later();
        const first = context.deadline;
        await later();
        return { first, second: context.deadline };
      },
    });
    const slowRecorder = {
      toolCalled: later,
      policyDecided: () => {},
      toolReturned: () => {},
    };
    for (const recorder of [undefined, slowRecorder]) {
      const gate = new ToolGate(new ToolRegistry().register(deadlines), {
        timeoutMs: 60_000,
        ...(recorder ? { recorder } : {}),
      });
      for (const wait of [false, true]) {
        const before = Date.now();
        const result = await gate
          .forAgent({ name: 'reader', tools: ['deadlines'] })
          .callTool('deadlines', { wait });
        const after = Date.now();
        const { first, second } = (result as unknown as { output: { first: number; second: number } }).output;
        expect(first).toBe(second);
        expect(Number.isInteger(first)).toBe(true);
        // the budget started when the tool was dispatched (to the ms): after the recorder's wait, before the reads
        expect(first).toBeGreaterThanOrEqual(before + 60_000 + (recorder ? 25 : 0) - 1);
        expect(first).toBeLessThanOrEqual(after + 60_000 - (wait ? 55 : 25));
      }
    }
  });
});
