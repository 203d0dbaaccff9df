import { describe, expect, it } from 'vitest';
import { Policy, type PolicyRequest, type PolicySubject, policies } from './policy.js';
import { parsePolicy, parsePolicyText } from './policy-document.js';

function request(tool: string, subject: PolicySubject = {}): PolicyRequest {
  return { agent: 'a', tool, parameters: {}, subject };
}

describe('Policy', () => {
  it('lets the strictest matching rule win: deny > ask > allow', () => {
    const policy = new Policy({
      default: 'allow',
      rules: [
        { tools: ['shell'], decision: 'allow' },
        { tools: ['shell'], decision: 'ask' },
        { tools: ['sh*'], decision: 'deny', reason: 'no shells here' },
      ],
    });
    expect(policy.decide(request('shell'))).toEqual({ decision: 'deny', rule: 2, reason: 'no shells here' });
    expect(policy.decide(request('read_file'))).toEqual({
      decision: 'allow',
      reason: 'no rule matched; the default is allow',
    });
  });

  it('denies by default when no rule matches and no default is set', () => {
    expect(new Policy({ rules: [] }).decide(request('oracle')).decision).toBe('deny');
  });

  it('allows a path rule only when every path the call touches is covered', () => {
    const policy = new Policy({ rules: [{ paths: ['ws/**'], decision: 'allow' }] });
    expect(policy.decide(request('read_file', { paths: ['ws/a.txt'] })).decision).toBe('allow');
    expect(policy.decide(request('read_file', { paths: ['ws/a.txt', 'etc/passwd'] })).decision).toBe('deny');
    expect(policy.decide(request('read_file', { paths: [] })).decision).toBe('deny');
    expect(policy.decide(request('read_file')).decision).toBe('deny');
  });

  it('matches resolved paths, so a traversal the tool resolved does not match', () => {
    const policy = new Policy({ rules: [{ paths: ['ws/**'], decision: 'allow' }] });
    // what a file tool reports for `ws/../etc/passwd` once resolved
    expect(policy.decide(request('read_file', { paths: ['etc/passwd'] })).decision).toBe('deny');
    expect(policy.decide(request('read_file', { paths: ['/etc/passwd'] })).decision).toBe('deny');
  });

  it('denies a call when any path it touches matches a deny rule', () => {
    const policy = new Policy({
      default: 'allow',
      rules: [{ paths: ['**/.env', '.env'], decision: 'deny' }],
    });
    expect(policy.decide(request('read_file', { paths: ['src/a.ts', 'app/.env'] })).decision).toBe('deny');
    expect(policy.decide(request('read_file', { paths: ['src/a.ts'] })).decision).toBe('allow');
  });

  it('matches commands by exact argv tokens, every command of a compound line', () => {
    const policy = new Policy({
      rules: [{ tools: ['shell'], commands: ['npm test', 'git status *'], decision: 'allow' }],
    });
    const decide = (...commands: string[][]) => policy.decide(request('shell', { commands })).decision;
    expect(decide(['npm', 'test'])).toBe('allow');
    expect(decide(['git', 'status'], ['git', 'status', '--short'])).toBe('allow');
    expect(decide(['npm', 'test'], ['rm', '-rf', '~'])).toBe('deny');
    expect(decide(['npm', 'test-evil'])).toBe('deny');
    expect(decide(['FOO=1', 'npm', 'test'])).toBe('deny');
    expect(decide(['npm', 'test', '--', '--watch'])).toBe('deny');
  });

  it('matches hosts case-insensitively, with globs', () => {
    const policy = new Policy({ rules: [{ hosts: ['*.Example.com'], decision: 'allow' }] });
    expect(policy.decide(request('fetch', { hosts: ['api.example.com'] })).decision).toBe('allow');
    expect(policy.decide(request('fetch', { hosts: ['example.com.evil.net'] })).decision).toBe('deny');
  });

  it('offers presets: allow-all, read-only and workspace', () => {
    expect(policies.allowAll().decide(request('shell')).decision).toBe('allow');
    expect(policies.readOnly().decide(request('read_file')).decision).toBe('allow');
    expect(policies.readOnly().decide(request('write_file')).decision).toBe('deny');
    expect(policies.workspace().decide(request('write_file')).decision).toBe('allow');
    expect(policies.workspace().decide(request('shell')).decision).toBe('ask');
  });
});

describe('parsePolicy', () => {
  it('reads a policy from YAML and from JSON', () => {
    const yaml = parsePolicyText('default: ask\nrules:\n  - tools: [oracle]\n    decision: allow\n');
    expect(yaml.decide(request('oracle')).decision).toBe('allow');
    expect(yaml.decide(request('shell')).decision).toBe('ask');
    const json = parsePolicyText('{"rules":[{"tools":["shell"],"decision":"deny"}]}');
    expect(json.decide(request('shell')).decision).toBe('deny');
  });

  it.each([
    [{ rules: [{ tools: ['x'], decision: 'maybe' }] }, 'rules[0].decision: Invalid option'],
    [
      { rules: [{ decision: 'allow' }, { tool: ['x'], decision: 'allow' }] },
      'rules[1]: unknown field "tool"',
    ],
    [{ rules: [{ paths: [], decision: 'allow' }] }, 'rules[0].paths: must name at least one pattern'],
    [{ rules: [{ hosts: [''], decision: 'allow' }] }, 'rules[0].hosts[0]: must not be empty'],
    [{ default: 'yes', rules: [] }, 'default: Invalid option'],
    [{}, 'rules: Invalid input: expected array'],
  ])('points to the bad rule in %j', (document, message) => {
    expect(() => parsePolicy(document, 'policy.yaml')).toThrow(message);
    expect(() => parsePolicy(document, 'policy.yaml')).toThrow(/^policy.yaml is not a valid policy: /);
  });

  it('says when the text is neither JSON nor YAML', () => {
    expect(() => parsePolicyText('rules: [\n', 'p.yaml')).toThrow(/^p.yaml is not valid JSON or YAML: /);
  });
});
