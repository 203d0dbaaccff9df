import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Authorization, ToolContext } from '../context.js';
import { ToolGate } from '../gate.js';
import type { ApprovalRequest } from '../gate-options.js';
import { RulePolicy as Policy, type PolicyVerdict } from '../policy.js';
import type { PolicyDecidedRecord, Recorder } from '../recorder.js';
import { ToolRegistry } from '../registry.js';
import { defineTool } from '../tool.js';

/** A tool that asks policy about the hosts it is given while it runs, as fetch does for a redirect hop. */
const visit = defineTool({
  name: 'visit',
  description: 'Visits hosts.',
  input: z.object({ hosts: z.array(z.string()).describe('hosts to visit') }),
  policySubject: () => ({}),
  run: async ({ hosts }, context: ToolContext) => {
    const answers: Authorization[] = [];
    for (const host of hosts) answers.push(await context.authorize({ hosts: [host] }));
    const judged: PolicyVerdict = context.judge({ paths: ['secret.txt'] }, { tool: 'read_file' });
    return { answers, judged: judged.decision };
  },
});

const policy = new Policy({
  default: 'allow',
  rules: [
    { tools: ['visit'], hosts: ['bad.test'], decision: 'deny', reason: 'bad.test is off limits' },
    { tools: ['visit'], hosts: ['maybe.test'], decision: 'ask' },
    { tools: ['read_file'], paths: ['secret.txt'], decision: 'deny' },
  ],
});

function gateWith(approver?: (request: ApprovalRequest) => boolean) {
  const decided: PolicyDecidedRecord[] = [];
  const recorder: Recorder = {
    toolCalled() {},
    policyDecided: (record) => void decided.push(record),
    toolReturned() {},
  };
  const gate = new ToolGate(new ToolRegistry().register(visit), {
    policy,
    recorder,
    ...(approver ? { approver } : {}),
  });
  return { agent: gate.forAgent({ name: 'walker', tools: ['visit'] }), decided };
}

describe('a running tool asks policy through its context', () => {
  it('authorize judges for the call’s agent and tool and records each answer as a policy.decided of the call', async () => {
    const asked: ApprovalRequest[] = [];
    const { agent, decided } = gateWith((request) => {
      asked.push(request);
      return true;
    });
    const result = await agent.callTool('visit', { hosts: ['good.test', 'bad.test', 'maybe.test'] });
    expect(result.isError).toBe(false);
    const { answers, judged } = (
      result as unknown as { output: { answers: Authorization[]; judged: string } }
    ).output;
    expect(answers.map((answer) => [answer.verdict, answer.allowed])).toEqual([
      ['allow', true],
      ['deny', false],
      ['ask', true],
    ]);
    expect(answers[1]!.reason).toBe('found during the call: host "bad.test": bad.test is off limits');
    expect(answers[1]!.rule).toBe(0);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ agent: 'walker', tool: 'visit', subject: { hosts: ['maybe.test'] } });
    expect(asked[0]!.callId).toBe(result.callId);
    // the call's own decision, then one per authorize; judge records nothing
    expect(decided.map((record) => [record.callId, record.verdict.decision, record.decision])).toEqual([
      [result.callId, 'allow', 'allow'],
      [result.callId, 'allow', 'allow'],
      [result.callId, 'deny', 'deny'],
      [result.callId, 'ask', 'allow'],
    ]);
    expect(judged).toBe('deny');
  });

  it('refuses an ask with no approver, saying so', async () => {
    const { agent } = gateWith();
    const result = await agent.callTool('visit', { hosts: ['maybe.test'] });
    const { answers } = (result as unknown as { output: { answers: Authorization[] } }).output;
    expect(answers[0]).toMatchObject({ allowed: false, verdict: 'ask' });
    expect(answers[0]!.reason).toMatch(/no approver is configured$/);
  });

  it('allows everything when the tool runs without a gate', async () => {
    const output = (await visit.run({ hosts: ['bad.test'] })) as { answers: Authorization[]; judged: string };
    expect(output.answers[0]).toMatchObject({ allowed: true, verdict: 'allow' });
    expect(output.judged).toBe('allow');
  });
});
