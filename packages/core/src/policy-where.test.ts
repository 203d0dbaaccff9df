import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from './json.js';
import type { PolicyRequest } from './policy.js';
import { parsePolicyText } from './policy-document.js';
import { valueAt } from './policy-where.js';

const call = (tool: string, parameters: JsonObject): PolicyRequest => ({
  agent: 'a',
  tool,
  parameters,
  subject: {},
});

describe('rules on arguments: where', () => {
  it('asks about a fetch with method POST and leaves a GET to the default', () => {
    const policy = parsePolicyText(
      'default: allow\nrules:\n  - { tools: [fetch], where: { /method: POST }, decision: ask }\n',
      'p.yaml',
    );
    expect(policy.decide(call('fetch', { url: 'https://x', method: 'POST' }))).toEqual({
      decision: 'ask',
      rule: 0,
      reason: 'rule 0 (ask tools fetch where {"/method":"POST"})',
    });
    expect(policy.decide(call('fetch', { url: 'https://x', method: 'GET' })).decision).toBe('allow');
  });

  it('denies a write whose content holds a private key, by an RE2 regex found anywhere in it', () => {
    const policy = parsePolicyText(
      `default: allow
rules:
  - tools: [write_file]
    where: { /content: { regex: '-----BEGIN [A-Z ]*PRIVATE KEY-----' } }
    decision: deny
    reason: no private keys in the workspace
`,
      'p.yaml',
    );
    const key = 'x\n-----BEGIN OPENSSH PRIVATE KEY-----\nabc';
    expect(policy.decide(call('write_file', { path: 'a', content: key })).reason).toBe(
      'no private keys in the workspace',
    );
    expect(policy.decide(call('write_file', { path: 'a', content: 'hello' })).decision).toBe('allow');
  });

  it('never lets an allow rule match an argument that is absent or not a string', () => {
    const policy = parsePolicyText(
      'rules:\n  - { tools: [fetch], where: { /method: GET }, decision: allow }\n',
      'p.yaml',
    );
    expect(policy.decide(call('fetch', { method: 'GET' })).decision).toBe('allow');
    expect(policy.decide(call('fetch', {})).decision).toBe('deny');
    expect(policy.decide(call('fetch', { method: ['GET'] })).decision).toBe('deny');
  });

  it('lets a deny rule match an absent argument only when it says missing: matches', () => {
    const text = (predicate: string) =>
      `default: allow\nrules:\n  - { tools: [fetch], where: { /method: ${predicate} }, decision: deny }\n`;
    const strict = parsePolicyText(text('{ glob: GET, missing: matches }'), 'p.yaml');
    expect(strict.decide(call('fetch', {})).decision).toBe('deny');
    expect(strict.decide(call('fetch', { method: 7 })).decision).toBe('deny');
    expect(strict.decide(call('fetch', { method: 'PUT' })).decision).toBe('allow');
    const plain = parsePolicyText(text('{ glob: GET }'), 'p.yaml');
    expect(plain.decide(call('fetch', {})).decision).toBe('allow');
    expect(plain.decide(call('fetch', { method: 'GET' })).decision).toBe('deny');
  });

  it('refuses missing: matches on a rule that allows, a pointer without a slash, and a regex RE2 cannot run', () => {
    expect(() =>
      parsePolicyText(
        'rules:\n  - { where: { /m: { glob: x, missing: matches } }, decision: allow }\n',
        'p.yaml',
      ),
    ).toThrow(
      /^p\.yaml is not a valid policy: rules\[0\]\.where\["\/m"\]: missing: matches is for rules that deny/,
    );
    expect(() => parsePolicyText('rules:\n  - { where: { method: x }, decision: deny }\n', 'p.yaml')).toThrow(
      /rules\[0\]\.where: "method" is not a JSON pointer; write it as "\/method"/,
    );
    expect(() =>
      parsePolicyText("rules:\n  - { where: { /m: { regex: '(a)\\1' } }, decision: deny }\n", 'p.yaml'),
    ).toThrow(/^p\.yaml is not a valid policy: /);
  });

  it('reads JSON pointers as RFC 6901 says: escapes, array indices, nothing inherited', () => {
    const parameters = { 'a/b': { 'c~d': ['x', 'y'] }, list: [{ name: 'n' }] };
    expect(valueAt(parameters, '/a~1b/c~0d/1')).toBe('y');
    expect(valueAt(parameters, '/list/0/name')).toBe('n');
    expect(valueAt(parameters, '/list/01/name')).toBeUndefined();
    expect(valueAt(parameters, '/constructor')).toBeUndefined();
    expect(valueAt(parameters, '')).toBe(parameters);
  });
});

describe('README: what the arguments are', () => {
  it('runs the example as the README says it behaves', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('- **What the arguments are: `where`.**'));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)![1]!.replace(/^ {2}/gm, '');
    const policy = parsePolicyText(example, 'README.md');
    expect(policy.decide(call('fetch', { url: 'https://x', method: 'POST' })).decision).toBe('ask');
    expect(policy.decide(call('fetch', { url: 'https://x', method: 'GET' })).decision).toBe('allow');
    expect(policy.decide(call('fetch', { url: 'https://x' })).decision).toBe('allow');
    const key = '-----BEGIN RSA PRIVATE KEY-----\n…';
    expect(policy.decide(call('write_file', { path: 'k', content: key })).decision).toBe('deny');
    expect(policy.decide(call('write_file', { path: 'k', content: 'notes' })).decision).toBe('allow');
  });
});
