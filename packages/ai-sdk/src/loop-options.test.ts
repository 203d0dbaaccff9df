import { RulePolicy } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from './ai-sdk-tools.js';
import { aiSdkLoopOptions } from './loop-options.js';
import { recordedGate } from './test-support/fixture.js';
import { runLoop } from './test-support/loop.js';
import { scriptedModel, toolOutputsSeen } from './test-support/scripted-model.js';

describe('aiSdkLoopOptions and the options of aiSdkTools', () => {
  it('refuses an object aiSdkTools did not make, saying what to pass', () => {
    expect(() => aiSdkLoopOptions({})).toThrow(
      /not made by aiSdkTools\(handle\); pass the object aiSdkTools returned/,
    );
  });

  it('records arguments that are not JSON as INVALID_PARAMETERS, and the model reads the code', async () => {
    const { gate, events, trace } = recordedGate();
    const tools = await aiSdkTools(gate.forAgent({ name: 'scribe', tools: ['write_note'] }));
    const model = scriptedModel([
      { calls: [{ name: 'write_note', input: '{"text": "unterminated' }] },
      { text: 'ok' },
    ]);
    const result = await runLoop(model, tools, { prompt: 'go' });
    expect(result.text).toBe('ok');
    expect(trace.events).toEqual([]);
    const returned = (await events()).find((event) => event.kind === 'tool.returned')!;
    expect(returned.payload).toMatchObject({
      tool: 'write_note',
      isError: true,
      error: { code: 'INVALID_PARAMETERS' },
    });
    const seen = toolOutputsSeen(model)['call-0-0'] as { value: string };
    expect(JSON.parse(seen.value)).toMatchObject({ code: 'INVALID_PARAMETERS' });
  });

  it("with approvals: 'gate', asks no AI SDK approval and leaves ask to the gate's approver", async () => {
    const policy = new RulePolicy({
      default: 'allow',
      rules: [{ tools: ['write_note'], decision: 'ask', reason: 'ask' }],
    });
    const { gate, trace } = recordedGate(policy, {
      approver: () => ({ approved: true, reason: 'the gate said so' }),
    });
    const tools = await aiSdkTools(gate.forAgent({ name: 'scribe', tools: ['write_note'] }), {
      approvals: 'gate',
    });
    const model = scriptedModel([{ calls: [{ name: 'write_note', input: { text: 'hi' } }] }, { text: 'ok' }]);
    const result = await runLoop(model, tools, { prompt: 'go' });
    expect(
      result.steps.flatMap((step) => step.content).some((part) => part.type === 'tool-approval-request'),
    ).toBe(false);
    expect(trace.events).toEqual(['start hi', 'end hi']);
    await expect(
      aiSdkTools(gate.forAgent({ name: 'x', tools: [] }), { approvals: 'maybe' as 'gate' }),
    ).rejects.toThrow(/approvals must be "ai-sdk" or "gate", not "maybe"/);
  });
});
