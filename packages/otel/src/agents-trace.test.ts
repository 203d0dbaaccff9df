import { Agent, run } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import { agentsTools } from '@toolgate/openai-agents';
import { afterEach, describe, expect, it } from 'vitest';
import { observedGate } from './test-support/gate.js';
import { onlySpan, telemetry } from './test-support/telemetry.js';

let current: ReturnType<typeof telemetry> | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('the gate in an OpenAI Agents run', () => {
  it('shows an allowed and an ungranted call as spans under the span the run was started in', async () => {
    current = telemetry();
    const { gate, events } = observedGate(current);
    const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['oracle'] }));
    const model = new ScriptedModel([
      [
        functionCall('oracle', { seed: 'moss' }, { callId: 'm1' }),
        functionCall('write_note', { text: 'sneaky' }, { callId: 'm2' }),
      ],
      [assistantMessage('done')],
    ]);
    const agent = new Agent({ name: 'teller', instructions: 'Read.', model, tools });
    await current.tracer.startActiveSpan('invoke_agent teller', async (root) => {
      await run(agent, 'go', runOptions);
      root.end();
    });
    const spans = current.spans();
    const root = onlySpan(spans, 'invoke_agent teller');
    const allowed = onlySpan(spans, 'execute_tool oracle');
    const refused = onlySpan(spans, 'execute_tool write_note');
    for (const span of [allowed, refused])
      expect(span.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(allowed.status.code).toBe(SpanStatusCode.UNSET);
    expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    const returned = (await events()).filter((event) => event.kind === 'tool.returned');
    expect([allowed, refused].map((span) => span.attributes['toolgate.ledger.seq'])).toEqual(
      returned.map((event) => event.seq),
    );
  });
});
