import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolGate } from './gate.js';
import type { ApprovalRequest } from './gate-options.js';
import { parsePolicyText } from './policy-document.js';
import type { PolicyDecidedRecord, Recorder } from './recorder.js';
import { ToolRegistry } from './registry.js';
import { rememberApprovals } from './remembered-approvals.js';
import { defineTool } from './tool.js';

const write = defineTool({
  name: 'write_file',
  description: 'Writes a file.',
  input: z.object({ path: z.string().describe('where'), content: z.string().describe('what') }),
  run: ({ path }) => ({ wrote: path }),
  policySubject: ({ path }) => ({ paths: [path] }),
});

function setUp(policyText = 'default: deny\nrules:\n  - { tools: [write_file], decision: ask }\n') {
  const asked: ApprovalRequest[] = [];
  const decided: PolicyDecidedRecord[] = [];
  const remembering = rememberApprovals((request) => {
    asked.push(request);
    return { approved: true, by: 'alice', scope: 'session' };
  });
  const recorder: Recorder = {
    toolCalled: () => {},
    policyDecided: (record) => void decided.push(record),
    toolReturned: () => {},
  };
  const gate = new ToolGate(new ToolRegistry().register(write), {
    policy: parsePolicyText(policyText, 'p.yaml'),
    approver: remembering.approver,
    recorder,
  });
  return { asked, decided, remembering, agent: gate.forAgent({ name: 'lead', tools: ['write_file'] }) };
}

describe('approvals remembered for a session', () => {
  it('answers the same tool on the same subject from memory, recording the scope each time', async () => {
    const { asked, decided, agent } = setUp();
    for (let call = 0; call < 3; call++)
      expect(await agent.callTool('write_file', { path: 'notes.md', content: `v${call}` })).toMatchObject({
        isError: false,
      });
    expect(asked).toHaveLength(1);
    expect(decided.map((record) => record.answer)).toEqual([
      { from: 'approver', approved: true, by: 'alice', scope: 'session' },
      {
        from: 'approver',
        approved: true,
        by: 'alice',
        scope: 'session',
        reason: 'remembered for this session',
      },
      {
        from: 'approver',
        approved: true,
        by: 'alice',
        scope: 'session',
        reason: 'remembered for this session',
      },
    ]);
  });

  it('does not carry over to another subject, nor to a narrowed child', async () => {
    const { asked, agent } = setUp();
    await agent.callTool('write_file', { path: 'notes.md', content: 'a' });
    await agent.callTool('write_file', { path: 'other.md', content: 'a' });
    await agent.narrow(['write_file'], 'critic').callTool('write_file', { path: 'notes.md', content: 'a' });
    expect(asked.map((request) => [request.agent, request.subject])).toEqual([
      ['lead', { paths: ['notes.md'] }],
      ['lead', { paths: ['other.md'] }],
      ['critic', { paths: ['notes.md'] }],
    ]);
  });

  it('never loosens a deny: a remembered approval is only ever asked for an ask', async () => {
    const { asked, agent } = setUp(
      "default: deny\nrules:\n  - { tools: [write_file], decision: ask }\n  - { tools: [write_file], paths: ['.env'], decision: deny }\n",
    );
    await agent.callTool('write_file', { path: 'notes.md', content: 'a' });
    expect(await agent.callTool('write_file', { path: '.env', content: 'a' })).toMatchObject({
      isError: true,
      error: { code: 'PERMISSION_DENIED' },
    });
    expect(asked).toHaveLength(1);
  });

  it('asks again once revoked', async () => {
    const { asked, remembering, agent } = setUp();
    await agent.callTool('write_file', { path: 'notes.md', content: 'a' });
    expect(remembering.revoke('write_file')).toBe(1);
    await agent.callTool('write_file', { path: 'notes.md', content: 'a' });
    expect(asked).toHaveLength(2);
  });
});
