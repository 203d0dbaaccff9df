import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolContext, ToolProgressEvent } from './context.js';
import { ToolGate } from './gate.js';
import type { JsonObject } from './json.js';
import type { Recorder, ToolReturnedRecord } from './recorder.js';
import { ToolRegistry } from './registry.js';
import type { ToolResolver } from './resolver.js';
import { defineTool } from './tool.js';

/** Settles after `ms`; a bound that only guards against a hang. */
const within = <T>(promise: Promise<T>, ms = 20_000): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no outcome within ${ms} ms`)), ms)),
  ]);

function returnedRecorder() {
  const returned: ToolReturnedRecord[] = [];
  const recorder: Recorder = {
    toolCalled() {},
    policyDecided() {},
    toolReturned: (record) => void returned.push(record),
  };
  return { recorder, returned };
}

/** A tool that waits for its signal (or forever, when it ignores it), telling the test it started. */
function hangingTools() {
  const seen: ToolContext[] = [];
  let started: () => void = () => {};
  const startedOnce = () => new Promise<void>((resolve) => (started = resolve));
  const listening = defineTool({
    name: 'listening',
    description: 'Waits until its signal aborts.',
    input: z.object({}),
    run: (_parameters, context) => {
      seen.push(context);
      started();
      return new Promise((_, reject) =>
        context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }),
      );
    },
  });
  const deaf = defineTool({
    name: 'deaf',
    description: 'Never finishes and never looks at its signal.',
    input: z.object({}),
    run: (_parameters, context) => {
      seen.push(context);
      started();
      return new Promise(() => {});
    },
  });
  const deafQuick = defineTool({
    name: 'deaf_quick',
    description: 'Never finishes; its own budget is 30 ms.',
    input: z.object({}),
    timeoutMs: 30,
    run: (_parameters, context) => {
      seen.push(context);
      return new Promise(() => {});
    },
  });
  const registry = new ToolRegistry().register(listening).register(deaf).register(deafQuick);
  return { registry, seen, startedOnce };
}

const manifest = { name: 'caller', tools: ['listening', 'deaf', 'deaf_quick', 'remote'] };

describe('the tool context', () => {
  it('hands run the call id, the agent, a live signal and reportProgress', async () => {
    let context: ToolContext | undefined;
    const probe = defineTool({
      name: 'probe',
      description: 'Keeps its context.',
      input: z.object({}),
      run: (_parameters, given) => {
        context = given;
        return { aborted: given.signal.aborted };
      },
    });
    const gate = new ToolGate(new ToolRegistry().register(probe), { callIds: () => 'call-7' });
    const result = await gate.forAgent({ name: 'seer', tools: ['probe'] }).callTool('probe', {});
    expect(result).toMatchObject({ isError: false, output: { aborted: false } });
    expect(context).toMatchObject({ callId: 'call-7', agent: 'seer' });
    expect(context!.signal).toBeInstanceOf(AbortSignal);
    expect(typeof context!.reportProgress).toBe('function');
  });

  it('hands a resolver the same context, and aborts its signal on cancel', async () => {
    let context: ToolContext | undefined;
    const resolver: ToolResolver = {
      has: async (name) => name === 'remote',
      describe: async (name) =>
        name === 'remote' ? { name, description: 'Remote.', inputSchema: { type: 'object' } } : undefined,
      call: (_name, _parameters: JsonObject, given) => {
        context = given;
        return new Promise(() => {});
      },
    };
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { callIds: () => 'call-r' });
    const controller = new AbortController();
    const pending = gate.forAgent(manifest).callTool('remote', {}, { signal: controller.signal });
    while (context === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(context).toMatchObject({ callId: 'call-r', agent: 'caller' });
    expect(context.signal.aborted).toBe(false);
    controller.abort();
    expect(await within(pending)).toMatchObject({ isError: true, error: { code: 'CANCELLED' } });
    expect(context.signal.aborted).toBe(true);
  });
});

describe('cancellation', () => {
  it.each(['listening', 'deaf'])(
    'ends a running call of "%s" with CANCELLED, aborts its signal and records it',
    async (tool) => {
      const { registry, seen, startedOnce } = hangingTools();
      const { recorder, returned } = returnedRecorder();
      const gate = new ToolGate(registry, { recorder, callIds: () => 'call-c' });
      const controller = new AbortController();
      const started = startedOnce();
      const pending = gate.forAgent(manifest).callTool(tool, {}, { signal: controller.signal });
      await within(started);
      controller.abort();
      const result = await within(pending);
      expect(result).toMatchObject({
        isError: true,
        error: {
          code: 'CANCELLED',
          message: expect.stringContaining(`the call to tool "${tool}" was cancelled`),
        },
      });
      expect(seen[0]!.signal.aborted).toBe(true);
      expect(seen[0]!.signal.reason).toMatchObject({ code: 'CANCELLED' });
      expect(returned).toEqual([
        expect.objectContaining({ callId: 'call-c', error: result.isError && result.error }),
      ]);
    },
  );

  it('does not run a tool when the signal was aborted before the call', async () => {
    const { registry, seen } = hangingTools();
    const { recorder, returned } = returnedRecorder();
    const gate = new ToolGate(registry, { recorder });
    const result = await gate.forAgent(manifest).callTool('listening', {}, { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ isError: true, error: { code: 'CANCELLED' } });
    expect(seen).toEqual([]);
    expect(returned).toHaveLength(1);
  });

  it('cancels every call of a concurrent batch, each recorded in the model order', async () => {
    const seen: ToolContext[] = [];
    const slowRead = defineTool({
      name: 'slow_read',
      description: 'Reads slowly, ignoring its signal.',
      input: z.object({ n: z.number().describe('which') }),
      parallelSafe: true,
      run: (_parameters, context) => {
        seen.push(context);
        return new Promise(() => {});
      },
    });
    const { recorder, returned } = returnedRecorder();
    let id = 0;
    const gate = new ToolGate(new ToolRegistry().register(slowRead), { recorder, callIds: () => `c${id++}` });
    const controller = new AbortController();
    const pending = gate.forAgent({ name: 'reader', tools: ['slow_read'] }).callTools(
      [
        { name: 'slow_read', parameters: { n: 1 } },
        { name: 'slow_read', parameters: { n: 2 } },
      ],
      { signal: controller.signal },
    );
    while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    controller.abort();
    const results = await within(pending);
    expect(results.map((result) => result.isError && result.error.code)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(seen.every((context) => context.signal.aborted)).toBe(true);
    expect(returned.map((record) => record.callId)).toEqual(['c0', 'c1']);
  });
});

describe('timeouts', () => {
  it('ends a tool that ignores its signal with TIMEOUT at its own budget, its signal aborted', async () => {
    const { registry, seen } = hangingTools();
    const { recorder, returned } = returnedRecorder();
    const gate = new ToolGate(registry, { recorder });
    const result = await within(gate.forAgent(manifest).callTool('deaf_quick', {}));
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'TIMEOUT', message: expect.stringContaining('did not finish within 30 ms') },
    });
    expect(seen[0]!.signal.aborted).toBe(true);
    expect(seen[0]!.signal.reason).toMatchObject({ code: 'TIMEOUT' });
    expect(returned[0]).toMatchObject({ isError: true, error: { code: 'TIMEOUT' } });
  });

  it("applies the gate's timeoutMs to a tool that sets none", async () => {
    const { registry } = hangingTools();
    const gate = new ToolGate(registry, { timeoutMs: 25 });
    const result = await within(gate.forAgent(manifest).callTool('deaf', {}));
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'TIMEOUT', message: expect.stringContaining('within 25 ms') },
    });
  });

  it("prefers the tool's own budget to the gate's", async () => {
    const { registry } = hangingTools();
    const gate = new ToolGate(registry, { timeoutMs: 60_000 });
    const result = await within(gate.forAgent(manifest).callTool('deaf_quick', {}));
    expect(result).toMatchObject({ isError: true, error: { code: 'TIMEOUT' } });
    expect(result.isError && result.error.message).toContain('within 30 ms');
  });

  it('refuses a budget that is not a positive number', () => {
    for (const timeoutMs of [0, -1, Number.NaN, '5' as unknown as number]) {
      expect(() =>
        defineTool({ name: 't', description: 'T.', input: z.object({}), run: () => 1, timeoutMs }),
      ).toThrow(
        expect.objectContaining({
          code: 'INVALID_DEFINITION',
          message: expect.stringContaining('timeoutMs'),
        }),
      );
      expect(() => new ToolGate(new ToolRegistry(), { timeoutMs })).toThrow(
        expect.objectContaining({ code: 'INVALID_DEFINITION' }),
      );
    }
  });
});

describe('progress', () => {
  it('delivers reports to onProgress before the result, and none after it', async () => {
    let late: (() => void) | undefined;
    const counting = defineTool({
      name: 'counting',
      description: 'Counts to three.',
      input: z.object({}),
      run: async (_parameters, context) => {
        for (let step = 1; step <= 3; step++) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          context.reportProgress({ progress: step, total: 3, message: `step ${step}` });
        }
        context.reportProgress({ progress: Number.NaN });
        late = () => context.reportProgress({ progress: 4 });
        return { done: true };
      },
    });
    const order: string[] = [];
    const events: ToolProgressEvent[] = [];
    const gate = new ToolGate(new ToolRegistry().register(counting), { callIds: () => 'p1' });
    const result = await gate.forAgent({ name: 'counter', tools: ['counting'] }).callTool(
      'counting',
      {},
      {
        onProgress: (event) => {
          events.push(event);
          order.push(`progress ${event.progress}`);
        },
      },
    );
    order.push('result');
    late!();
    expect(result).toMatchObject({ isError: false, output: { done: true } });
    expect(order).toEqual(['progress 1', 'progress 2', 'progress 3', 'result']);
    expect(events[0]).toEqual({ callId: 'p1', tool: 'counting', progress: 1, total: 3, message: 'step 1' });
  });

  it('keeps a tool running when its progress listener throws', async () => {
    const reporting = defineTool({
      name: 'reporting',
      description: 'Reports once.',
      input: z.object({}),
      run: (_parameters, context) => {
        context.reportProgress({ progress: 1 });
        return { fine: true };
      },
    });
    const gate = new ToolGate(new ToolRegistry().register(reporting));
    let told = 0;
    const result = await gate.forAgent({ name: 'r', tools: ['reporting'] }).callTool(
      'reporting',
      {},
      {
        onProgress: () => {
          told++;
          throw new Error('listener broke');
        },
      },
    );
    expect(told).toBe(1);
    expect(result).toMatchObject({ isError: false, output: { fine: true } });
  });
});

describe('durations', () => {
  it('puts durationMs on outputs and on every kind of error, measured by the injected clock', async () => {
    let now = 0;
    const { registry } = hangingTools();
    const { recorder, returned } = returnedRecorder();
    const gate = new ToolGate(registry, { recorder, clock: () => (now += 5) });
    const agent = gate.forAgent(manifest);
    const denied = await agent.callTool('not_granted', {});
    const timedOut = await within(agent.callTool('deaf_quick', {}));
    expect(denied).toMatchObject({ isError: true, error: { code: 'CAPABILITY_VIOLATION' }, durationMs: 5 });
    expect(timedOut).toMatchObject({ isError: true, error: { code: 'TIMEOUT' }, durationMs: 5 });
    expect(returned.map((record) => record.durationMs)).toEqual([5, 5]);
  });

  it('measures real time by default', async () => {
    const { registry } = hangingTools();
    const result = await within(new ToolGate(registry).forAgent(manifest).callTool('deaf_quick', {}));
    expect(result.durationMs).toBeGreaterThanOrEqual(25);
  });

  it("takes a duration from the gate's recording when it gives one (as a replay does)", async () => {
    const { registry } = hangingTools();
    const gate = new ToolGate(registry, {
      callIds: () => 'r-1',
      recording: {
        decision: () => ({ verdict: { decision: 'allow', reason: 'recorded' } }),
        output: () => null,
        duration: (callId) => (callId === 'r-1' ? 42 : undefined),
      },
    });
    expect(await gate.forAgent(manifest).callTool('nope', {})).toMatchObject({ durationMs: 42 });
  });
});
