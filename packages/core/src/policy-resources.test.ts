import { describe, expect, it } from 'vitest';
import { parsePolicy } from './policy-document.js';

const policy = parsePolicy({
  default: 'allow',
  rules: [
    { resources: ['file:///srv/docs/**'], decision: 'allow' },
    { resources: ['file:///srv/**', 'secret://*'], decision: 'deny', reason: 'not outside docs' },
    { tools: ['fs__*'], resources: ['file:///home/*/notes'], decision: 'ask' },
  ],
});
const read = (uri: string, tool = 'resources/read') =>
  policy.decide({
    agent: 'desktop',
    client: 'desktop',
    tool,
    parameters: { uri },
    subject: { resources: [uri] },
  });

describe('policy rules naming resources (judged on the URI)', () => {
  it('judges a resource read by the URI: the strictest rule that covers it wins', () => {
    expect(read('file:///srv/docs/a/b.md')).toMatchObject({ decision: 'deny', rule: 1 });
    expect(read('file:///srv/other.md')).toMatchObject({
      decision: 'deny',
      rule: 1,
      reason: expect.stringContaining('not outside docs'),
    });
    expect(read('file:///etc/passwd')).toMatchObject({
      decision: 'allow',
      reason: expect.stringContaining('no rule matched'),
    });
  });

  it('reads * as one URI segment and ** as any, and everything else as itself', () => {
    expect(read('secret://key')).toMatchObject({ decision: 'deny' });
    expect(read('secret://a/key')).toMatchObject({ decision: 'allow' });
    expect(read('file:///srvX/docs')).toMatchObject({ decision: 'allow' });
  });

  it('judges a tool call only by the resources its subject names, and fails closed when the subject is unknown', () => {
    expect(read('file:///home/ada/notes', 'fs__read')).toMatchObject({ decision: 'ask', rule: 2 });
    expect(
      policy.decide({ agent: 'a', tool: 'fs__read', parameters: {}, subject: { paths: ['x'] } }),
    ).toMatchObject({ decision: 'allow' });
    // unknown subject: the deny rule on resources applies, the allow and the ask are set aside
    expect(policy.decide({ agent: 'a', tool: 'fs__read', parameters: {} })).toMatchObject({
      decision: 'deny',
      rule: 1,
    });
  });

  it('gives the same verdicts when the rules are many enough to be indexed', () => {
    const filler = Array.from({ length: 20 }, (_, index) => ({
      paths: [`p${index}/**`],
      decision: 'allow' as const,
    }));
    const indexed = parsePolicy({ default: 'allow', rules: [...policy.document.rules, ...filler] });
    for (const uri of ['file:///srv/docs/a', 'file:///srv/x', 'secret://k', 'file:///etc/passwd']) {
      const request = { agent: 'd', tool: 'resources/read', parameters: {}, subject: { resources: [uri] } };
      expect(indexed.decide(request).decision, uri).toBe(policy.decide(request).decision);
    }
  });

  it('refuses an empty resources list, naming the rule', () => {
    expect(() => parsePolicy({ rules: [{ resources: [], decision: 'deny' }] })).toThrow(
      /rules\.0\.resources|rules\[0\]\.resources/,
    );
  });
});
