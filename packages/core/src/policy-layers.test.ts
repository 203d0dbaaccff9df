import { describe, expect, it } from 'vitest';
import type { PolicyRequest } from './policy.js';
import { parsePolicyText } from './policy-document.js';
import { layeredPolicy } from './policy-layers.js';

const call = (tool: string, paths?: string[]): PolicyRequest => ({
  agent: 'a',
  tool,
  parameters: {},
  subject: paths === undefined ? {} : { paths },
});

const managed = parsePolicyText(
  `rules:
  - { tools: [shell], decision: deny, reason: no shells on managed machines }
  - { tools: [write_file], paths: ['.github/**'], decision: ask }
`,
  'managed.yaml',
);
const project = parsePolicyText(
  `default: allow
rules:
  - { tools: [shell, write_file], decision: allow }
  - { tools: [fetch], decision: deny }
`,
  'toolgate.yaml',
);

describe('a layered policy', () => {
  const policy = layeredPolicy([
    { name: 'managed', policy: managed },
    { name: 'project', policy: project },
  ]);

  it('keeps a project allow under a managed deny denied, and names the layer and its rule', () => {
    expect(policy.decide(call('shell'))).toEqual({
      decision: 'deny',
      rule: 0,
      layer: 'managed',
      reason: 'no shells on managed machines',
    });
  });

  it('keeps a managed ask an ask whatever a layer below allows', () => {
    expect(policy.decide(call('write_file', ['.github/workflows/ci.yml']))).toMatchObject({
      decision: 'ask',
      rule: 1,
      layer: 'managed',
    });
    expect(policy.decide(call('write_file', ['src/a.ts']))).toMatchObject({
      decision: 'allow',
      layer: 'project',
    });
  });

  it('lets a layer below tighten, naming its own rule within it', () => {
    expect(policy.decide(call('fetch'))).toEqual({
      decision: 'deny',
      rule: 1,
      layer: 'project',
      reason: 'rule 1 of layer project (deny tools fetch)',
    });
  });

  it('takes the default of the most authoritative layer that sets one, and says which', () => {
    expect(policy.decide(call('oracle'))).toEqual({
      decision: 'allow',
      reason: 'no rule matched; the default is allow (set by layer project)',
    });
    const strict = layeredPolicy([
      { name: 'managed', policy: { default: 'deny', rules: [] } },
      { name: 'project', policy: project },
    ]);
    expect(strict.decide(call('oracle')).decision).toBe('deny');
  });

  it('refuses two layers of one name', () => {
    expect(() =>
      layeredPolicy([
        { name: 'user', policy: project },
        { name: 'user', policy: managed },
      ]),
    ).toThrow(/two policy layers are named "user"; give each layer its own name/);
  });
});
