import { RulePolicy } from '@toolgate/core';
import { generateText, type ModelMessage, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from './ai-sdk-tools.js';
import { aiSdkLoopOptions } from './loop-options.js';
import { recordedGate } from './test-support/fixture.js';
import { approvalAnswer, runLoop } from './test-support/loop.js';
import { scriptedModel, toolOutputsSeen } from './test-support/scripted-model.js';

const everything = { name: 'scribe', tools: ['oracle', 'write_note', 'wait', 'sketch'] };

/** The ledger as `kind tool outcome` lines. */
async function lines(events: () => Promise<{ kind: string; payload: unknown }[]>) {
  return (await events()).map(({ kind, payload }) => {
    const p = payload as { tool?: string; decision?: string; isError?: boolean; error?: { code: string } };
    const outcome =
      kind === 'policy.decided' ? p.decision : kind === 'tool.returned' ? (p.error?.code ?? 'ok') : '';
    return `${kind} ${p.tool ?? ''} ${outcome ?? ''}`.trim();
  });
}

async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (let tries = 0; tries < 2_000; tries++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/**
 * A scribe with every tool, under a policy that asks before `write_note`, and a model that asks
 * for one note ("hi") and then says `finalText`.
 */
async function noteNeedingApproval(finalText: string) {
  const policy = new RulePolicy({
    default: 'allow',
    rules: [{ tools: ['write_note'], decision: 'ask', reason: 'notes need a person' }],
  });
  const { gate, events, trace } = recordedGate(policy);
  const tools = await aiSdkTools(gate.forAgent(everything));
  const model = scriptedModel([
    { calls: [{ name: 'write_note', input: { text: 'hi' } }] },
    { text: finalText },
  ]);
  return { events, trace, tools, model };
}

describe('aiSdkTools through a real generateText loop', () => {
  it('runs a granted call through the gate, records it, and shows the model its JSON output', async () => {
    const { gate, events } = recordedGate();
    const tools = await aiSdkTools(gate.forAgent(everything));
    expect(Object.keys(tools)).toEqual(['oracle', 'write_note', 'wait', 'sketch']);
    const model = scriptedModel([
      { calls: [{ name: 'oracle', input: { seed: 'moss' } }] },
      { text: 'the end' },
    ]);
    const result = await runLoop(model, tools, { prompt: 'go' });
    expect(result.text).toBe('the end');
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({
      isError: false,
      output: { omen: 'the moss remembers moss' },
    });
    expect(toolOutputsSeen(model)).toEqual({
      'call-0-0': { type: 'json', value: { omen: 'the moss remembers moss' } },
    });
    expect(await lines(events)).toEqual([
      'tool.called oracle',
      'policy.decided oracle allow',
      'tool.returned oracle ok',
    ]);
  });

  it('records an ungranted and an unknown call as refused, tells the model { code, message }, and the turn goes on', async () => {
    const { gate, events, trace } = recordedGate();
    const tools = await aiSdkTools(gate.forAgent({ name: 'reader', tools: ['oracle'] }));
    const model = scriptedModel([
      {
        calls: [
          { name: 'write_note', input: { text: 'sneaky' } },
          { name: 'burn_it_all', input: {} },
        ],
      },
      { text: 'understood' },
    ]);
    const result = await runLoop(model, tools, { prompt: 'go' });
    expect(result.text).toBe('understood');
    expect(trace.events).toEqual([]);
    expect(await lines(events)).toEqual([
      'tool.called write_note',
      'tool.returned write_note CAPABILITY_VIOLATION',
      'tool.called burn_it_all',
      'tool.returned burn_it_all CAPABILITY_VIOLATION',
    ]);
    const seen = toolOutputsSeen(model) as Record<string, { type: string; value: string }>;
    expect(seen['call-0-0']!.type).toBe('error-text');
    expect(JSON.parse(seen['call-0-0']!.value)).toEqual({
      code: 'CAPABILITY_VIOLATION',
      message: expect.stringContaining('agent "reader" is not granted tool "write_note"'),
    });
    expect(JSON.parse(seen['call-0-1']!.value)).toMatchObject({ code: 'CAPABILITY_VIOLATION' });
  });

  it('refuses a call policy denies without running it, and the model reads { code, message } as JSON text', async () => {
    const policy = new RulePolicy({
      default: 'allow',
      rules: [{ tools: ['write_note'], decision: 'deny', reason: 'no notes' }],
    });
    const { gate, events, trace } = recordedGate(policy);
    const tools = await aiSdkTools(gate.forAgent(everything));
    const model = scriptedModel([{ calls: [{ name: 'write_note', input: { text: 'hi' } }] }]);
    await runLoop(model, tools, { prompt: 'go' });
    expect(trace.events).toEqual([]);
    const seen = toolOutputsSeen(model)['call-0-0'] as { type: string; value: string };
    expect(seen.type).toBe('error-text');
    expect(JSON.parse(seen.value)).toEqual({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('no notes'),
    });
    expect(await lines(events)).toEqual([
      'tool.called write_note',
      'policy.decided write_note deny',
      'tool.returned write_note PERMISSION_DENIED',
    ]);
  });

  it('turns "ask" into an AI SDK approval request, and runs the call once approved, recording who approved', async () => {
    const { events, trace, tools, model } = await noteNeedingApproval('written');
    const messages: ModelMessage[] = [{ role: 'user', content: 'write' }];
    const first = await runLoop(model, tools, { messages });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    expect(trace.events).toEqual([]);
    // the ask is recorded as it is put to the SDK's approval flow, before anyone answers it
    const asked = await events();
    expect(asked.map((event) => [event.kind, event.actor, event.id])).toEqual([
      ['policy.asked', 'scribe', 'run-1:call-0-0:policy.asked'],
    ]);
    expect(asked[0]?.payload).toEqual({
      askId: 'call-0-0',
      askedOf: 'ai-sdk tool approval',
      tool: 'write_note',
      parameters: { text: 'hi' },
      verdict: { decision: 'ask', rule: 0, reason: 'notes need a person' },
    });
    messages.push(...first.response.messages, approvalAnswer(request!.approvalId, true, 'looks fine'));
    const second = await runLoop(model, tools, { messages });
    expect(second.text).toBe('written');
    expect(trace.events).toEqual(['start hi', 'end hi']);
    // once: the resumed run's approval check does not put it again
    expect((await events()).filter((event) => event.kind === 'policy.asked')).toHaveLength(1);
    const decided = (await events()).find((event) => event.kind === 'policy.decided')!;
    expect(decided.payload).toMatchObject({
      verdict: { decision: 'ask' },
      decision: 'allow',
      reason: 'notes need a person; approved by ai-sdk tool approval: looks fine',
    });
  });

  it('records a rejected approval as refused by the approver, and never runs the tool', async () => {
    const { events, trace, tools, model } = await noteNeedingApproval('fine, no note');
    const messages: ModelMessage[] = [{ role: 'user', content: 'write' }];
    const first = await runLoop(model, tools, { messages });
    const request = first.content.find((part) => part.type === 'tool-approval-request')!;
    messages.push(...first.response.messages, approvalAnswer(request.approvalId, false, 'not now'));
    const second = await runLoop(model, tools, { messages });
    expect(second.text).toBe('fine, no note');
    expect(trace.events).toEqual([]);
    expect(await lines(events)).toEqual([
      'policy.asked write_note',
      'tool.called write_note',
      'policy.decided write_note deny',
      'tool.returned write_note PERMISSION_DENIED',
    ]);
    const decided = (await events()).find((event) => event.kind === 'policy.decided')!;
    expect(decided.payload).toMatchObject({
      reason: 'notes need a person; not approved by ai-sdk tool approval: not now',
    });
    expect(toolOutputsSeen(model)['call-0-0']).toMatchObject({ type: 'execution-denied' });
  });

  it("runs a step of calls that are not parallel-safe one at a time, recording them in the model's order", async () => {
    const { gate, events, trace } = recordedGate();
    const tools = await aiSdkTools(gate.forAgent(everything));
    const model = scriptedModel([
      {
        calls: [
          { name: 'write_note', input: { text: 'a long first note' } },
          { name: 'write_note', input: { text: 'b' } },
          { name: 'oracle', input: { seed: 'c' } },
        ],
      },
    ]);
    await runLoop(model, tools, { prompt: 'go' });
    expect(trace.overlapped).toBe(false);
    expect(trace.events).toEqual(['start a long first note', 'end a long first note', 'start b', 'end b']);
    const called = (await events())
      .filter((event) => event.kind === 'tool.called')
      .map((event) => event.payload);
    expect(called).toEqual([
      { callId: 'c1', tool: 'write_note', parameters: { text: 'a long first note' } },
      { callId: 'c2', tool: 'write_note', parameters: { text: 'b' } },
      { callId: 'c3', tool: 'oracle', parameters: { seed: 'c' } },
    ]);
  });

  it("runs the parallel-safe calls of a step concurrently, still recording them in the model's order", async () => {
    const { gate, events, trace } = recordedGate();
    const tools = await aiSdkTools(gate.forAgent({ name: 'looker', tools: ['peek'] }));
    const model = scriptedModel([
      {
        calls: [
          { name: 'peek', input: { at: 'north' } },
          { name: 'peek', input: { at: 'south' } },
        ],
      },
    ]);
    await runLoop(model, tools, { prompt: 'go' });
    expect(trace.overlapped).toBe(true);
    expect(trace.events.slice(0, 2)).toEqual(['start north', 'start south']);
    const called = (await events())
      .filter((event) => event.kind === 'tool.called')
      .map((event) => event.payload);
    expect(called).toEqual([
      { callId: 'c1', tool: 'peek', parameters: { at: 'north' } },
      { callId: 'c2', tool: 'peek', parameters: { at: 'south' } },
    ]);
    expect((await events()).map((event) => event.kind)).toEqual([
      'tool.called',
      'policy.decided',
      'tool.returned',
      'tool.called',
      'policy.decided',
      'tool.returned',
    ]);
  });

  it('passes the SDK abort signal to the tool: a cancelled call ends CANCELLED and is recorded', async () => {
    const { gate, events, trace } = recordedGate();
    const tools = await aiSdkTools(gate.forAgent(everything));
    const model = scriptedModel([{ calls: [{ name: 'wait', input: {} }] }]);
    const controller = new AbortController();
    const running = generateText({
      model,
      tools,
      ...aiSdkLoopOptions(tools),
      prompt: 'go',
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
    });
    const settled = running.then(
      () => 'resolved',
      () => 'rejected',
    );
    await until(() => trace.events.includes('waiting'), 'the tool to start');
    controller.abort();
    expect(await settled).toBe('rejected');
    await until(
      async () => (await events()).some((event) => event.kind === 'tool.returned'),
      'the call to be recorded',
    );
    expect(trace.signals[0]!.aborted).toBe(true);
    expect(await lines(events)).toEqual([
      'tool.called wait',
      'policy.decided wait allow',
      'tool.returned wait CANCELLED',
    ]);
  });

  it("gives content parts (an image) to the model as the SDK's multi-part output, the output's text rendering left out", async () => {
    const { gate } = recordedGate();
    const tools = await aiSdkTools(gate.forAgent(everything));
    const model = scriptedModel([{ calls: [{ name: 'sketch', input: { title: 'moss' } }] }]);
    await runLoop(model, tools, { prompt: 'go' });
    expect(toolOutputsSeen(model)['call-0-0']).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: '{"title":"moss"}' },
        {
          type: 'file',
          mediaType: 'image/png',
          data: { type: 'data', data: Buffer.from('PNG bytes').toString('base64') },
        },
      ],
    });
  });
});

describe('aiSdkTools through a real streamText loop', () => {
  it('keeps order, records and structured errors', async () => {
    const { gate, events, trace } = recordedGate();
    const tools = await aiSdkTools(gate.forAgent({ name: 'scribe', tools: ['oracle', 'write_note'] }));
    const model = scriptedModel([
      {
        calls: [
          { name: 'write_note', input: { text: 'a long first note' } },
          { name: 'write_note', input: { text: 'b' } },
          { name: 'sketch', input: { title: 'x' } },
        ],
      },
      { text: 'ok' },
    ]);
    const result = streamText({
      model,
      tools,
      ...aiSdkLoopOptions(tools),
      prompt: 'go',
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe('ok');
    expect(trace.overlapped).toBe(false);
    expect(await lines(events)).toEqual([
      'tool.called sketch',
      'tool.returned sketch CAPABILITY_VIOLATION',
      'tool.called write_note',
      'policy.decided write_note allow',
      'tool.returned write_note ok',
      'tool.called write_note',
      'policy.decided write_note allow',
      'tool.returned write_note ok',
    ]);
  });
});
