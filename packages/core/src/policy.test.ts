import { describe, expect, it } from 'vitest';
import { allowAll, type PolicyRequest, type PolicySubject, RulePolicy } from './policy.js';
import { parsePolicy, parsePolicyText } from './policy-document.js';

function request(tool: string, subject: PolicySubject = {}): PolicyRequest {
  return { agent: 'a', tool, parameters: {}, subject };
}

/** A call whose subject toolgate could not compute. */
function unknownRequest(tool: string): PolicyRequest {
  return { agent: 'a', tool, parameters: {} };
}

describe('Policy', () => {
  it('lets the strictest matching rule win: deny > ask > allow', () => {
    const policy = new RulePolicy({
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
    expect(new RulePolicy({ rules: [] }).decide(request('oracle')).decision).toBe('deny');
  });

  it('allows a path rule only when every path the call touches is covered', () => {
    const policy = new RulePolicy({ rules: [{ paths: ['ws/**'], decision: 'allow' }] });
    expect(policy.decide(request('read_file', { paths: ['ws/a.txt'] })).decision).toBe('allow');
    expect(policy.decide(request('read_file', { paths: ['ws/a.txt', 'etc/passwd'] })).decision).toBe('deny');
    expect(policy.decide(request('read_file', { paths: [] })).decision).toBe('deny');
    expect(policy.decide(request('read_file')).decision).toBe('deny');
  });

  it('matches resolved paths, so a traversal the tool resolved does not match', () => {
    const policy = new RulePolicy({ rules: [{ paths: ['ws/**'], decision: 'allow' }] });
    // what a file tool reports for `ws/../etc/passwd` once resolved
    expect(policy.decide(request('read_file', { paths: ['etc/passwd'] })).decision).toBe('deny');
    expect(policy.decide(request('read_file', { paths: ['/etc/passwd'] })).decision).toBe('deny');
  });

  it('denies a call when any path it touches matches a deny rule', () => {
    const policy = new RulePolicy({
      default: 'allow',
      rules: [{ paths: ['**/.env', '.env'], decision: 'deny' }],
    });
    expect(policy.decide(request('read_file', { paths: ['src/a.ts', 'app/.env'] })).decision).toBe('deny');
    expect(policy.decide(request('read_file', { paths: ['src/a.ts'] })).decision).toBe('allow');
  });

  it('matches commands by exact argv tokens, every command of a compound line', () => {
    const policy = new RulePolicy({
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

  it('judges every command of a line on its own: an ask rule never covers a command no rule names', () => {
    const policy = new RulePolicy({
      default: 'deny',
      rules: [{ tools: ['shell'], commands: ['npm test'], decision: 'ask' }],
    });
    const decide = (...commands: string[][]) => policy.decide(request('shell', { commands }));
    expect(decide(['npm', 'test']).decision).toBe('ask');
    expect(decide(['npm', 'test'], ['touch', 'X'])).toEqual({
      decision: 'deny',
      reason: 'command "touch X": no rule matched; the default is deny',
    });
    expect(decide(['touch', 'X'], ['npm', 'test']).decision).toBe('deny');
    expect(decide(['npm', 'test'], ['npm', 'test']).decision).toBe('ask');
  });

  it('asks for a line when one of its commands is asked about and the others are allowed', () => {
    const policy = new RulePolicy({
      default: 'allow',
      rules: [{ tools: ['shell'], commands: ['rm *'], decision: 'ask', reason: 'removing needs a human' }],
    });
    expect(policy.decide(request('shell', { commands: [['ls'], ['rm', 'x']] }))).toEqual({
      decision: 'ask',
      rule: 0,
      reason: 'command "rm x": removing needs a human',
    });
    expect(policy.decide(request('shell', { commands: [['ls'], ['pwd']] })).decision).toBe('allow');
  });

  it('judges each path on its own, so an ask on docs/** does not cover another path', () => {
    const policy = new RulePolicy({ default: 'deny', rules: [{ paths: ['docs/**'], decision: 'ask' }] });
    expect(policy.decide(request('read_file', { paths: ['docs/a.md'] })).decision).toBe('ask');
    expect(policy.decide(request('read_file', { paths: ['docs/a.md', '.secret'] })).decision).toBe('deny');
  });

  describe('when the subject is unknown (fails closed)', () => {
    it('applies a deny rule on paths, commands or hosts, and says why', () => {
      for (const condition of [{ paths: ['.secret'] }, { commands: ['rm *'] }, { hosts: ['evil.net'] }]) {
        const policy = new RulePolicy({
          default: 'allow',
          rules: [{ tools: ['read_file'], ...condition, decision: 'deny' }],
        });
        const verdict = policy.decide(unknownRequest('read_file'));
        expect(verdict.decision).toBe('deny');
        expect(verdict.rule).toBe(0);
        expect(verdict.reason).toContain(
          'toolgate cannot tell which paths, commands, hosts or resources "read_file" touches',
        );
        // a known subject that touches none of it is not denied
        expect(policy.decide(request('read_file', { paths: ['pub/a.txt'] })).decision).toBe('allow');
      }
    });

    it('never applies an allow or ask rule on paths, commands or hosts', () => {
      for (const decision of ['allow', 'ask'] as const) {
        const policy = new RulePolicy({
          default: 'deny',
          rules: [{ tools: ['read_file'], paths: ['pub/**'], decision }],
        });
        const verdict = policy.decide(unknownRequest('read_file'));
        expect(verdict.decision).toBe('deny');
        expect(verdict.rule).toBeUndefined();
        expect(verdict.reason).toContain('so rules on them that allow or ask do not apply');
        expect(policy.decide(request('read_file', { paths: ['pub/a.txt'] })).decision).toBe(decision);
      }
    });

    it('still applies rules that name only tools', () => {
      const policy = new RulePolicy({
        default: 'deny',
        rules: [
          { tools: ['oracle'], decision: 'allow' },
          { tools: ['shell'], decision: 'ask' },
        ],
      });
      expect(policy.decide(unknownRequest('oracle')).decision).toBe('allow');
      expect(policy.decide(unknownRequest('shell')).decision).toBe('ask');
    });

    it('is not the same as a known subject that touches nothing', () => {
      const policy = new RulePolicy({ default: 'allow', rules: [{ paths: ['.secret'], decision: 'deny' }] });
      expect(policy.decide(request('oracle', {})).decision).toBe('allow');
      expect(policy.decide(unknownRequest('oracle')).decision).toBe('deny');
    });
  });

  it('matches hosts case-insensitively, with globs', () => {
    const policy = new RulePolicy({ rules: [{ hosts: ['*.Example.com'], decision: 'allow' }] });
    expect(policy.decide(request('fetch', { hosts: ['api.example.com'] })).decision).toBe('allow');
    expect(policy.decide(request('fetch', { hosts: ['example.com.evil.net'] })).decision).toBe('deny');
  });

  it("allows every call by default (the presets that name tools are @toolgate/builtins' policies)", () => {
    expect(allowAll().decide(request('shell')).decision).toBe('allow');
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
