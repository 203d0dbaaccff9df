import { SpanStatusCode } from '@opentelemetry/api';
import { RulePolicy } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { observedGate } from './test-support/gate.js';
import { onlySpan, telemetry } from './test-support/telemetry.js';

let current: ReturnType<typeof telemetry> | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const policy = new RulePolicy({
  default: 'allow',
  rules: [{ tools: ['write_note'], decision: 'ask', reason: 'notes need a person' }],
});

describe('otelObserver: a span per call, after the GenAI conventions', () => {
  it('names an allowed call execute_tool {tool}, with the GenAI and toolgate attributes and its ledger seq', async () => {
    current = telemetry();
    const { gate, events } = observedGate(current, policy);
    await gate.forAgent({ name: 'teller', tools: ['oracle'] }).callTool('oracle', { seed: 'moss' });
    const span = onlySpan(current.spans(), 'execute_tool oracle');
    const returned = (await events()).find((event) => event.kind === 'tool.returned')!;
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'oracle',
      'gen_ai.tool.call.id': 'c1',
      'toolgate.agent': 'teller',
      'toolgate.grant': ['oracle'],
      'toolgate.policy.verdict': 'allow',
      'toolgate.policy.decision': 'allow',
      'toolgate.ledger.run_id': 'run-1',
      'toolgate.ledger.seq': returned.seq,
    });
  });

  it('marks a call outside the grant ERROR with its code: the span exists though policy never decided', async () => {
    current = telemetry();
    const { gate, events } = observedGate(current, policy);
    const result = await gate
      .forAgent({ name: 'teller', tools: ['oracle'] })
      .callTool('write_note', { text: 'x' });
    expect(result.isError).toBe(true);
    const span = onlySpan(current.spans(), 'execute_tool write_note');
    expect(span.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: expect.stringMatching(
        /^CAPABILITY_VIOLATION: agent "teller" is not granted tool "write_note"/,
      ),
    });
    expect(span.attributes['error.type']).toBe('CAPABILITY_VIOLATION');
    expect(span.attributes['toolgate.policy.verdict']).toBeUndefined();
    const returned = (await events()).find((event) => event.kind === 'tool.returned')!;
    expect(span.attributes['toolgate.ledger.seq']).toBe(returned.seq);
  });

  it('puts the rule, the approver and a denial on the span of an ask the approver rejected', async () => {
    current = telemetry();
    const { gate } = observedGate(current, policy, {
      approver: () => ({ approved: false, by: 'ada', reason: 'not today' }),
    });
    await gate.forAgent({ name: 'scribe', tools: ['write_note'] }).callTool('write_note', { text: 'hi' });
    const span = onlySpan(current.spans(), 'execute_tool write_note');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({
      'error.type': 'PERMISSION_DENIED',
      'toolgate.policy.verdict': 'ask',
      'toolgate.policy.decision': 'deny',
      'toolgate.policy.rule': 0,
      'toolgate.policy.reason': 'notes need a person',
      'toolgate.approval.from': 'approver',
      'toolgate.approval.approved': false,
      'toolgate.approval.by': 'ada',
    });
  });

  it("nests the gate's span under the span active when the call arrives", async () => {
    current = telemetry();
    const { gate } = observedGate(current);
    const handle = gate.forAgent({ name: 'teller', tools: ['oracle'] });
    const { tracer } = current;
    await tracer.startActiveSpan('invoke_agent teller', async (parent) => {
      await handle.callTool('oracle', { seed: 'moss' });
      parent.end();
    });
    const parent = onlySpan(current.spans(), 'invoke_agent teller');
    const span = onlySpan(current.spans(), 'execute_tool oracle');
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  });

  it('counts calls by outcome, refusals by code, and records durations', async () => {
    current = telemetry();
    const { gate } = observedGate(current);
    const handle = gate.forAgent({ name: 'teller', tools: ['oracle'] });
    await handle.callTool('oracle', { seed: 'a' });
    await handle.callTool('oracle', { seed: 'b' });
    await handle.callTool('write_note', { text: 'no' });
    await handle.callTool('oracle', { wrong: 1 });
    const metrics = await current.metrics();
    const calls = metrics['toolgate.calls']!.map((point) => [
      point.attributes['toolgate.outcome'],
      point.attributes['error.type'],
      point.value,
    ]);
    expect(calls).toEqual(
      expect.arrayContaining([
        ['ok', undefined, 2],
        ['refused', 'CAPABILITY_VIOLATION', 1],
        ['refused', 'INVALID_PARAMETERS', 1],
      ]),
    );
    expect(
      metrics['toolgate.refusals']!.map((point) => point.value).reduce((a, b) => Number(a) + Number(b), 0),
    ).toBe(2);
    const durations = metrics['toolgate.call.duration']!.map(
      (point) => (point.value as { count: number }).count,
    );
    expect(durations.reduce((a, b) => a + b, 0)).toBe(4);
  });
});
