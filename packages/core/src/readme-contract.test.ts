// The examples of the README's "Context, cancellation, timeouts, durations and progress" section,
// run as written (imports from this package's source), with what each comment promises asserted.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolGate } from './gate.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

describe('README: context, cancellation, timeouts, progress', () => {
  it('context', async () => {
    const whoAsks = defineTool({
      name: 'who_asks',
      description: 'Says who is calling.',
      input: z.object({}),
      run: (_parameters, { agent, callId }) => ({ agent, callId }),
    });
    const gate = new ToolGate(new ToolRegistry().register(whoAsks), { callIds: () => 'call-1' });
    const result = await gate.forAgent({ name: 'seer', tools: ['who_asks'] }).callTool('who_asks', {});
    expect(result).toEqual({
      callId: 'call-1',
      tool: 'who_asks',
      isError: false,
      output: { agent: 'seer', callId: 'call-1' },
      durationMs: expect.any(Number),
    });
  });

  it('cancellation', async () => {
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until told to stop.',
      input: z.object({}),
      run: (_parameters, { signal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    const agent = new ToolGate(new ToolRegistry().register(wait)).forAgent({ name: 'a', tools: ['wait'] });
    const controller = new AbortController();
    const pending = agent.callTool('wait', {}, { signal: controller.signal });
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.isError && result.error.code).toBe('CANCELLED');
  });

  it('timeouts', async () => {
    const stuck = defineTool({
      name: 'stuck',
      description: 'Never answers.',
      input: z.object({}),
      timeoutMs: 50,
      run: () => new Promise(() => {}),
    });
    const agent = new ToolGate(new ToolRegistry().register(stuck)).forAgent({ name: 'a', tools: ['stuck'] });
    expect(await agent.callTool('stuck', {})).toMatchObject({
      isError: true,
      error: {
        code: 'TIMEOUT',
        message: expect.stringMatching(/^tool "stuck" did not finish within 50 ms; /),
      },
      durationMs: expect.any(Number),
    });
  });

  it('progress', async () => {
    const count = defineTool({
      name: 'count',
      description: 'Counts to three.',
      input: z.object({}),
      run: async (_parameters, { reportProgress }) => {
        for (let step = 1; step <= 3; step++) reportProgress({ progress: step, total: 3 });
        return { counted: 3 };
      },
    });
    const printed: string[] = [];
    const agent = new ToolGate(new ToolRegistry().register(count)).forAgent({ name: 'a', tools: ['count'] });
    const result = await agent.callTool(
      'count',
      {},
      { onProgress: ({ progress, total }) => printed.push(`${progress}/${total}`) },
    );
    printed.push('result');
    expect(result).toMatchObject({ isError: false, output: { counted: 3 } });
    expect(printed).toEqual(['1/3', '2/3', '3/3', 'result']);
  });
});
