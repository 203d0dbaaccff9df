import { describe, expect, it } from 'vitest';
import { parsePolicyText } from './policy-document.js';
import { layeredPolicy } from './policy-layers.js';

describe('explaining a verdict', () => {
  it('lists, for each resource, every rule that judged it, with its layer, beside the verdict', () => {
    const policy = layeredPolicy([
      {
        name: 'managed',
        policy: parsePolicyText(
          "rules:\n  - { tools: [shell], commands: ['rm *'], decision: deny }\n",
          'managed.yaml',
        ),
      },
      {
        name: 'project',
        policy: parsePolicyText(
          "default: deny\nrules:\n  - { tools: [shell], decision: ask }\n  - { tools: [shell], commands: ['npm test', 'rm build.log'], decision: allow }\n",
          'toolgate.yaml',
        ),
      },
    ]);
    const explanation = policy.explain({
      agent: 'a',
      tool: 'shell',
      parameters: {},
      subject: {
        commands: [
          ['npm', 'test'],
          ['rm', 'build.log'],
        ],
      },
    });
    expect(explanation).toEqual({
      verdict: {
        decision: 'deny',
        rule: 0,
        layer: 'managed',
        reason: 'command "rm build.log": rule 0 of layer managed (deny tools shell commands rm *)',
      },
      resources: [
        {
          resource: 'command "npm test"',
          judgedBy: [
            { rule: 0, layer: 'project', decision: 'ask', text: 'ask tools shell' },
            {
              rule: 1,
              layer: 'project',
              decision: 'allow',
              text: 'allow tools shell commands npm test, rm build.log',
            },
          ],
        },
        {
          resource: 'command "rm build.log"',
          judgedBy: [
            { rule: 0, layer: 'managed', decision: 'deny', text: 'deny tools shell commands rm *' },
            { rule: 0, layer: 'project', decision: 'ask', text: 'ask tools shell' },
            {
              rule: 1,
              layer: 'project',
              decision: 'allow',
              text: 'allow tools shell commands npm test, rm build.log',
            },
          ],
        },
      ],
    });
  });

  it('lists no rule for a resource none judged, the default then deciding', () => {
    const policy = parsePolicyText(
      "rules:\n  - { tools: [read_file], paths: ['src/**'], decision: allow }\n",
      'p.yaml',
    );
    expect(
      policy.explain({ agent: 'a', tool: 'read_file', parameters: {}, subject: { paths: ['etc/passwd'] } }),
    ).toEqual({
      verdict: { decision: 'deny', reason: 'no rule matched; the default is deny' },
      resources: [{ resource: 'path "etc/passwd"', judgedBy: [] }],
    });
  });
});
