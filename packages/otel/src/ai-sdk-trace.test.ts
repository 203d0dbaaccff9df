import { context, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { aiSdkLoopOptions, aiSdkTools } from '@toolgate/ai-sdk';
import { RulePolicy } from '@toolgate/core';
import { generateText, stepCountIs, type Telemetry } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { observedGate } from './test-support/gate.js';
import { onlySpan, telemetry } from './test-support/telemetry.js';

let current: ReturnType<typeof telemetry> | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model that calls `write_note` once (or `calls` times, in one step), then says "done". */
function noteModel(calls = 1) {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) =>
      prompt.at(-1)?.role === 'tool'
        ? {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: Array.from({ length: calls }, (_, index) => ({
              type: 'tool-call' as const,
              toolCallId: `model-call-${index + 1}`,
              toolName: 'write_note',
              input: JSON.stringify({ text: `hi ${index + 1}` }),
            })),
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
  });
}

/**
 * The AI SDK's telemetry contract (`telemetry.integrations`), as an OpenTelemetry integration uses
 * it: each tool execution runs inside the framework's own `execute_tool` span, made active.
 */
function frameworkSpans(tracer: Tracer): Telemetry {
  return {
    executeTool: ({ execute, toolCallId }) =>
      tracer.startActiveSpan(`ai.toolCall ${toolCallId}`, async (span) => {
        try {
          return await execute();
        } finally {
          span.end();
        }
      }),
  };
}

describe('the gate in an AI SDK trace', () => {
  it("shows a denied call as an ERROR span under the framework's tool span, with the ledger seq", async () => {
    current = telemetry();
    const policy = new RulePolicy({
      default: 'allow',
      rules: [{ tools: ['write_note'], decision: 'deny', reason: 'no notes' }],
    });
    const { gate, events } = observedGate(current, policy);
    const tools = await aiSdkTools(gate.forAgent({ name: 'scribe', tools: ['write_note'] }));
    const { tracer } = current;
    await tracer.startActiveSpan('invoke_agent scribe', async (root) => {
      await generateText({
        model: noteModel(),
        tools,
        ...aiSdkLoopOptions(tools),
        prompt: 'write',
        stopWhen: stepCountIs(2),
        telemetry: { integrations: [frameworkSpans(tracer)] },
      });
      root.end();
    });
    const spans = current.spans();
    const framework = onlySpan(spans, 'ai.toolCall model-call-1');
    const gated = onlySpan(spans, 'execute_tool write_note');
    expect(gated.parentSpanContext?.spanId).toBe(framework.spanContext().spanId);
    expect(gated.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: expect.stringContaining('PERMISSION_DENIED: permission denied'),
    });
    const returned = (await events()).find((event) => event.kind === 'tool.returned')!;
    expect(gated.attributes).toMatchObject({
      'error.type': 'PERMISSION_DENIED',
      'toolgate.policy.rule': 0,
      'toolgate.ledger.seq': returned.seq,
      'toolgate.ledger.run_id': 'run-1',
    });
    expect(trace.getSpan(context.active())).toBeUndefined();
  });

  it("puts each call of a multi-call step under its own call's framework span, in the model's order", async () => {
    current = telemetry();
    const { gate, events } = observedGate(current, new RulePolicy({ default: 'allow', rules: [] }));
    const tools = await aiSdkTools(gate.forAgent({ name: 'scribe', tools: ['write_note'] }));
    const { tracer } = current;
    await generateText({
      model: noteModel(3),
      tools,
      ...aiSdkLoopOptions(tools),
      prompt: 'write thrice',
      stopWhen: stepCountIs(2),
      telemetry: { integrations: [frameworkSpans(tracer)] },
    });
    const spans = current.spans();
    const gated = spans.filter((span) => span.name === 'execute_tool write_note');
    expect(gated).toHaveLength(3);
    const called = (await events()).filter((event) => event.kind === 'tool.called');
    for (const [index, event] of called.entries()) {
      expect(event.payload).toMatchObject({ parameters: { text: `hi ${index + 1}` } });
      const framework = onlySpan(spans, `ai.toolCall model-call-${index + 1}`);
      const callId = (event.payload as { callId: string }).callId;
      const span = gated.find((each) => each.attributes['gen_ai.tool.call.id'] === callId);
      expect(span?.parentSpanContext?.spanId).toBe(framework.spanContext().spanId);
    }
  });
});
