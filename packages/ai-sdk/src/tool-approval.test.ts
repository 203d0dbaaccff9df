import { RulePolicy } from '@toolgate/core';
import { generateText, type ModelMessage, stepCountIs, streamText, type ToolApprovalStatus, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkTools } from './ai-sdk-tools.js';
import { aiSdkLoopOptions } from './loop-options.js';
import { recordedGate } from './test-support/fixture.js';
import { approvalAnswer } from './test-support/loop.js';
import { scriptedModel, toolOutputsSeen } from './test-support/scripted-model.js';

const scribe = { name: 'scribe', tools: ['oracle', 'write_note'] };

/** Notes ask a person, omens are allowed; the model asks for one note and one omen. */
async function scene(policyRules: ConstructorParameters<typeof RulePolicy>[0]['rules'] = []) {
  const policy = new RulePolicy({ default: 'allow', rules: policyRules });
  const fixture = recordedGate(policy);
  const tools = await aiSdkTools(fixture.gate.forAgent(scribe));
  return { ...fixture, tools };
}

async function decided(events: () => Promise<{ kind: string; payload: unknown }[]>) {
  return (await events())
    .filter((event) => event.kind === 'policy.decided')
    .map((event) => event.payload as Record<string, unknown>);
}

describe("the gate's ask as AI SDK 7 toolApproval, composed with the app's", () => {
  it("asks for approval with policy's reason on the request, with no app toolApproval", async () => {
    const { tools, trace } = await scene([
      { tools: ['write_note'], decision: 'ask', reason: 'notes need a person' },
    ]);
    const model = scriptedModel([{ calls: [{ name: 'write_note', input: { text: 'hi' } }] }]);
    const result = await generateText({
      model,
      tools,
      ...aiSdkLoopOptions(tools),
      prompt: 'go',
      stopWhen: stepCountIs(2),
    });
    const request = result.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ reason: 'notes need a person', toolCall: { toolName: 'write_note' } });
    expect(trace.events).toEqual([]);
  });

  it("asks for approval with policy's reason in streamText too, and denies what the app's function denies", async () => {
    const { tools, trace, events } = await scene([
      { tools: ['write_note'], decision: 'ask', reason: 'notes need a person' },
    ]);
    const model = scriptedModel([
      {
        calls: [
          { name: 'write_note', input: { text: 'hi' } },
          { name: 'oracle', input: { seed: 'moss' } },
        ],
      },
    ]);
    const toolApproval = ({ toolCall }: { toolCall: { toolName: string } }): ToolApprovalStatus =>
      toolCall.toolName === 'oracle' ? { type: 'denied', reason: 'no omens today' } : undefined;
    const result = streamText({
      model,
      tools,
      ...aiSdkLoopOptions(tools, { toolApproval }),
      prompt: 'go',
      stopWhen: stepCountIs(1),
    });
    const parts = [];
    for await (const part of result.fullStream) parts.push(part);
    expect(parts.find((part) => part.type === 'tool-approval-request' && !part.isAutomatic)).toMatchObject({
      reason: 'notes need a person',
      toolCall: { toolName: 'write_note' },
    });
    expect(trace.events).toEqual([]);
    // the gate allowed the omen; the app's denial is the recorded answer, with its reason
    expect(await decided(events)).toMatchObject([
      {
        tool: 'oracle',
        decision: 'deny',
        verdict: { decision: 'allow' },
        answer: { from: 'caller', approved: false, by: 'app toolApproval', reason: 'no omens today' },
      },
    ]);
    const returned = (await events()).filter((event) => event.kind === 'tool.returned');
    expect(returned.map((event) => event.payload)).toMatchObject([
      { tool: 'oracle', isError: true, error: { code: 'PERMISSION_DENIED' } },
    ]);
  });

  it("keeps the gate's ask when the app's function approves: the stricter answer wins, then the person approves", async () => {
    const { tools, trace, events } = await scene([
      { tools: ['write_note'], decision: 'ask', reason: 'notes need a person' },
    ]);
    const appSaw: string[] = [];
    const toolApproval = ({ toolCall }: { toolCall: { toolName: string } }): ToolApprovalStatus => {
      appSaw.push(toolCall.toolName);
      return 'approved';
    };
    const model = scriptedModel([
      { calls: [{ name: 'write_note', input: { text: 'hi' } }] },
      { text: 'written' },
    ]);
    const options = aiSdkLoopOptions(tools, { toolApproval });
    const messages: ModelMessage[] = [{ role: 'user', content: 'write' }];
    const first = await generateText({ model, tools, ...options, messages, stopWhen: stepCountIs(2) });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ reason: 'notes need a person' });
    expect(appSaw).toEqual(['write_note']);
    expect(trace.events).toEqual([]);
    messages.push(...first.response.messages, approvalAnswer(request!.approvalId, true, 'fine'));
    const second = await generateText({ model, tools, ...options, messages, stopWhen: stepCountIs(2) });
    expect(second.text).toBe('written');
    expect(trace.events).toEqual(['start hi', 'end hi']);
    expect(await decided(events)).toMatchObject([
      {
        tool: 'write_note',
        decision: 'allow',
        reason: 'notes need a person; approved by ai-sdk tool approval: fine',
      },
    ]);
  });

  it("denies a call the gate allows when the app's function denies it, and records the app's refusal", async () => {
    const { tools, trace, events } = await scene();
    const toolApproval = ({ toolCall }: { toolCall: { toolName: string } }): ToolApprovalStatus =>
      toolCall.toolName === 'write_note' ? { type: 'denied', reason: 'opa says no' } : undefined;
    const model = scriptedModel([
      {
        calls: [
          { name: 'write_note', input: { text: 'hi' } },
          { name: 'oracle', input: { seed: 'moss' } },
        ],
      },
      { text: 'ok' },
    ]);
    await generateText({
      model,
      tools,
      ...aiSdkLoopOptions(tools, { toolApproval }),
      prompt: 'go',
      stopWhen: stepCountIs(2),
    });
    expect(trace.events).toEqual([]);
    const seen = toolOutputsSeen(model);
    expect(seen['call-0-0']).toMatchObject({ type: 'execution-denied', reason: 'opa says no' });
    expect(seen['call-0-1']).toEqual({ type: 'json', value: { omen: 'the moss remembers moss' } });
    const returned = (await events()).filter((event) => event.kind === 'tool.returned');
    // the gate allowed it; the app's veto is recorded as the answer, with its reason (not a CANCELLED)
    expect(await decided(events)).toMatchObject([
      {
        tool: 'write_note',
        decision: 'deny',
        verdict: { decision: 'allow' },
        reason: expect.stringMatching(/; not approved by app toolApproval: opa says no$/),
      },
      { tool: 'oracle', decision: 'allow' },
    ]);
    expect(returned.map((event) => event.payload)).toMatchObject([
      { tool: 'write_note', isError: true, error: { code: 'PERMISSION_DENIED' } },
      { tool: 'oracle', isError: false },
    ]);
  });

  it("records the app's denial of a gate ask as refused by the app, naming its reason", async () => {
    const { tools, trace, events } = await scene([
      { tools: ['write_note'], decision: 'ask', reason: 'notes need a person' },
    ]);
    const model = scriptedModel([{ calls: [{ name: 'write_note', input: { text: 'hi' } }] }, { text: 'ok' }]);
    const toolApproval = { write_note: { type: 'denied' as const, reason: 'no notes at night' } };
    await generateText({
      model,
      tools,
      ...aiSdkLoopOptions(tools, { toolApproval }),
      prompt: 'go',
      stopWhen: stepCountIs(2),
    });
    expect(trace.events).toEqual([]);
    expect(await decided(events)).toMatchObject([
      {
        tool: 'write_note',
        decision: 'deny',
        reason: 'notes need a person; not approved by app toolApproval: no notes at night',
      },
    ]);
  });

  it("never widens the gate's deny: an app that approves still gets the gate's refusal as { code, message }", async () => {
    const { tools, trace, events } = await scene([
      { tools: ['write_note'], decision: 'deny', reason: 'no notes' },
    ]);
    const model = scriptedModel([{ calls: [{ name: 'write_note', input: { text: 'hi' } }] }, { text: 'ok' }]);
    await generateText({
      model,
      tools,
      ...aiSdkLoopOptions(tools, { toolApproval: () => 'approved' }),
      prompt: 'go',
      stopWhen: stepCountIs(2),
    });
    expect(trace.events).toEqual([]);
    const seen = toolOutputsSeen(model)['call-0-0'] as { type: string; value: string };
    expect(seen.type).toBe('error-text');
    expect(JSON.parse(seen.value)).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('no notes'),
    });
    expect(await decided(events)).toMatchObject([{ tool: 'write_note', decision: 'deny' }]);
  });

  it('asks for a call the gate allows when the per-tool object form asks for it', async () => {
    const { tools, trace } = await scene();
    const model = scriptedModel([{ calls: [{ name: 'oracle', input: { seed: 'moss' } }] }]);
    const toolApproval = { oracle: { type: 'user-approval' as const, reason: 'the app asks' } };
    const result = await generateText({
      model,
      tools,
      ...aiSdkLoopOptions(tools, { toolApproval }),
      prompt: 'go',
      stopWhen: stepCountIs(2),
    });
    expect(result.content.find((part) => part.type === 'tool-approval-request')).toMatchObject({
      reason: 'the app asks',
    });
    expect(trace.events).toEqual([]);
  });

  it('mixes gated tools with native ones in one ToolSet: the native tool runs, and its needsApproval still asks', async () => {
    const { tools: gated, events } = await scene();
    const weather = tool({
      description: 'The weather.',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, sky: 'grey' }),
    });
    const launch = tool({
      description: 'Launches.',
      inputSchema: z.object({}),
      needsApproval: true,
      execute: async () => 'launched',
    });
    const tools = { ...gated, weather, launch };
    const model = scriptedModel([
      {
        calls: [
          { name: 'weather', input: { city: 'Oslo' } },
          { name: 'oracle', input: { seed: 'moss' } },
          { name: 'launch', input: {} },
        ],
      },
    ]);
    const result = await generateText({
      model,
      tools,
      ...aiSdkLoopOptions(tools),
      prompt: 'go',
      stopWhen: stepCountIs(1),
    });
    expect(result.toolResults.map((part) => part.toolName).sort()).toEqual(['oracle', 'weather']);
    expect(result.content.find((part) => part.type === 'tool-approval-request')).toMatchObject({
      toolCall: { toolName: 'launch' },
    });
    const called = (await events()).filter((event) => event.kind === 'tool.called');
    expect(called.map((event) => (event.payload as { tool: string }).tool)).toEqual(['oracle']);
  });
});
