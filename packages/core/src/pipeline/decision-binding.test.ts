import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ExternalDecision } from '../context.js';
import { ToolGate } from '../gate.js';
import { parsePolicyText } from '../policy-document.js';
import { ToolRegistry } from '../registry.js';
import { defineTool } from '../tool.js';

const write = defineTool({
  name: 'write_file',
  description: 'Writes a file.',
  input: z.object({ path: z.string().describe('where'), content: z.string().describe('what') }),
  run: ({ path }) => ({ wrote: path }),
  policySubject: ({ path }) => ({ paths: [path] }),
});
const gate = new ToolGate(new ToolRegistry().register(write), {
  policy: parsePolicyText('rules:\n  - { tools: [write_file], decision: ask }\n', 'p.yaml'),
});
const agent = gate.forAgent({ name: 'lead', tools: ['write_file'] });

describe('a caller’s decision bound to the parameters it was made for', () => {
  it('answers the call it was made for, once; a reused one is refused and says so', async () => {
    const parameters = { path: 'notes.md', content: 'a' };
    const check = await agent.check('write_file', parameters);
    if (check.status !== 'ask') throw new Error(`expected an ask, got ${check.status}`);
    const decision: ExternalDecision = { approved: true, by: 'alice', parameters: check.request.parameters };
    expect(await agent.callTool('write_file', parameters, { decision })).toMatchObject({ isError: false });
    expect(await agent.callTool('write_file', parameters, { decision })).toMatchObject({
      isError: true,
      error: {
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining('this decision already answered a call; decide again for this one'),
      },
    });
  });

  it('refuses a decision made for other parameters, key order aside', async () => {
    const decision = { approved: true, by: 'alice', parameters: { content: 'a', path: 'notes.md' } };
    expect(
      await agent.callTool('write_file', { path: 'notes.md', content: 'a' }, { decision }),
    ).toMatchObject({
      isError: false,
    });
    const altered = { approved: true, by: 'alice', parameters: { path: 'notes.md', content: 'a' } };
    expect(
      await agent.callTool('write_file', { path: '.bashrc', content: 'a' }, { decision: altered }),
    ).toMatchObject({
      isError: true,
      error: { message: expect.stringContaining("made for other parameters than the call's") },
    });
  });

  it('leaves a decision without parameters as it was: it answers any call it is given', async () => {
    const decision = { approved: true, by: 'alice' };
    for (let call = 0; call < 2; call++)
      expect(await agent.callTool('write_file', { path: 'a', content: 'b' }, { decision })).toMatchObject({
        isError: false,
      });
  });
});
