import { RulePolicy } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { lintPolicy } from './policy-lint.js';

const kinds = (rules: ConstructorParameters<typeof RulePolicy>[0]['rules']) =>
  lintPolicy(new RulePolicy({ rules })).map((finding) => [finding.kind, finding.rule, finding.by.rule]);

describe('lintPolicy', () => {
  it('finds an allow under a blanket deny of the same tools unreachable, and a repeated rule shadowed', () => {
    expect(
      kinds([
        { tools: ['mcp__*'], decision: 'deny' },
        { tools: ['mcp__*'], paths: ['src/**'], decision: 'allow' },
        { tools: ['read_file'], decision: 'ask' },
        { tools: ['read_file'], decision: 'ask' },
        { decision: 'deny', agents: ['critic'] },
        { tools: ['write_file'], agents: ['critic'], decision: 'ask' },
      ]),
    ).toEqual([
      ['unreachable', 1, 0],
      ['shadowed', 3, 2],
      ['unreachable', 5, 4],
    ]);
  });

  it('reports nothing it is not sure of: narrower or different conditions, other tools, a looser rule above', () => {
    expect(
      kinds([
        { tools: ['shell'], commands: ['rm -rf *'], decision: 'deny' },
        { tools: ['shell'], decision: 'allow' }, // judges more than the deny does
        { tools: ['mcp__a*'], decision: 'deny' },
        { tools: ['mcp__*'], decision: 'allow' }, // a wider glob than the deny's
        { tools: ['fetch'], hosts: ['*.example.com'], decision: 'allow' },
        { tools: ['fetch'], hosts: ['api.example.com'], decision: 'deny' }, // stricter, below
        { tools: ['fetch'], where: { '/method': 'POST' }, decision: 'ask' },
        { tools: ['fetch'], where: { '/method': 'GET' }, decision: 'allow' },
      ]),
    ).toEqual([]);
  });
});
