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
});
