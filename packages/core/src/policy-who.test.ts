import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolGate } from './gate.js';
import { patternGrant } from './pipeline/grant.js';
import { RulePolicy } from './policy.js';
import { parsePolicyText } from './policy-document.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

const note = defineTool({
  name: 'write_note',
  description: 'Writes a note.',
  input: z.object({ text: z.string().describe('the note') }),
  run: ({ text }) => ({ written: text }),
  policySubject: () => ({}),
});
const registry = new ToolRegistry().register(note);

function gateWith(text: string): ToolGate {
  return new ToolGate(registry, { policy: parsePolicyText(text, 'who.yaml'), callIds: () => 'id' });
}

describe('rules on who calls: agents', () => {
  const gate = gateWith(`default: allow
rules:
  - { tools: [write_note], agents: ['lead/*'], decision: deny, reason: children of the lead only read }
  - { agents: [reviewer], decision: ask }
`);
  const lead = gate.forAgent({ name: 'lead', tools: ['write_note'] });

  it('matches a narrowed child by its path, its parent’s name and its own, and not the parent', async () => {
    expect(await lead.callTool('write_note', { text: 'a' })).toMatchObject({ isError: false });
    const critic = lead.narrow(['write_note'], 'critic');
    expect(await critic.callTool('write_note', { text: 'a' })).toMatchObject({
      isError: true,
      error: {
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining('children of the lead only read'),
      },
    });
    // `lead/*` is a child only: a grandchild (`lead/critic/sub`) is not one
    expect(await critic.narrow(['write_note']).callTool('write_note', { text: 'a' })).toMatchObject({
      isError: false,
    });
  });

  it('leaves every other agent to the other rules', async () => {
    const reviewer = gate.forAgent({ name: 'reviewer', tools: ['write_note'] });
    expect((await reviewer.check('write_note', { text: 'a' })).status).toBe('ask');
    const other = gate.forAgent({ name: 'other', tools: ['write_note'] });
    expect((await other.check('write_note', { text: 'a' })).status).toBe('allowed');
  });

  it('names the agents a rule judges in the reason it gives', () => {
    const policy = new RulePolicy({ rules: [{ agents: ['lead/**'], decision: 'allow' }] });
    expect(
      policy.decide({ agent: 'x', agentPath: 'lead/a/b', tool: 't', parameters: {}, subject: {} }),
    ).toEqual({
      decision: 'allow',
      rule: 0,
      reason: 'rule 0 (allow agents lead/**)',
    });
    expect(policy.decide({ agent: 'lead2', tool: 't', parameters: {}, subject: {} }).decision).toBe('deny');
  });
});

describe('rules on who calls: gateway clients', () => {
  const gate = gateWith(`default: allow
rules:
  - { clients: ['ci*'], tools: [write_note], decision: deny }
`);

  it('applies to the calls of a matching client, and its narrowed agents keep the client', async () => {
    const ci = patternGrant('ci-nightly', ['write_*'], { client: 'ci-nightly' });
    const desktop = patternGrant('desktop', ['write_*'], { client: 'desktop' });
    expect(await gate.call({ tool: 'write_note', parameters: { text: 'a' } }, { grant: ci })).toMatchObject({
      isError: true,
      error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('clients ci*') },
    });
    const child = ci.narrow(['write_note'], 'helper');
    expect(child).toMatchObject({ client: 'ci-nightly', agentPath: 'ci-nightly/helper' });
    expect(
      await gate.call({ tool: 'write_note', parameters: { text: 'a' } }, { grant: child }),
    ).toMatchObject({
      isError: true,
    });
    expect(
      await gate.call({ tool: 'write_note', parameters: { text: 'a' } }, { grant: desktop }),
    ).toMatchObject({
      isError: false,
    });
  });

  it('never applies to a call that came through no gateway client, even one of an agent named like it', async () => {
    const agent = gate.forAgent({ name: 'ci', tools: ['write_note'] });
    expect(await agent.callTool('write_note', { text: 'a' })).toMatchObject({ isError: false });
  });

  it('refuses an empty list of agents or clients, naming the rule', () => {
    expect(() => parsePolicyText('rules:\n  - { agents: [], decision: deny }\n', 'p.yaml')).toThrow(
      /rules\[0\]\.agents: must name at least one pattern/,
    );
    expect(() => parsePolicyText('rules:\n  - { clients: [""], decision: deny }\n', 'p.yaml')).toThrow(
      /rules\[0\]\.clients\[0\]: must not be empty/,
    );
  });
});

describe('README: who calls', () => {
  it('runs the example as the README says it behaves', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('- **Who calls: `agents` and `clients`.**'));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)![1]!.replace(/^ {2}/gm, '');
    const tools = [note, { ...note, name: 'write_file' }, { ...note, name: 'shell' }];
    const registry = new ToolRegistry();
    for (const tool of tools) registry.register(tool);
    const gate = new ToolGate(registry, { policy: parsePolicyText(example, 'README.md') });
    const lead = gate.forAgent({ name: 'lead', tools: ['write_file', 'shell'] });
    const call = { tool: 'write_file', parameters: { text: 'a' } };
    expect((await lead.check('write_file', { text: 'a' })).status).toBe('allowed');
    expect((await lead.narrow(['write_file'], 'critic').check('write_file', { text: 'a' })).status).toBe(
      'refused',
    );
    const ci = patternGrant('ci-nightly', ['*'], { client: 'ci-nightly' });
    const desktop = patternGrant('desktop', ['*'], { client: 'desktop' });
    expect((await gate.check(ci, 'shell', { text: 'a' })).status).toBe('ask');
    expect((await gate.check(desktop, 'shell', { text: 'a' })).status).toBe('allowed');
    expect((await gate.check(ci, call.tool, call.parameters)).status).toBe('allowed');
  });
});
