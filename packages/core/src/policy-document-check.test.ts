import { describe, expect, it } from 'vitest';
import { policyDocumentSchema } from './policy-document.js';
import { commonPolicyDocument } from './policy-document-check.js';
import { random } from './test-support/policy-cases.js';

/** Documents the check passes: each is what the schema would return for it. */
const common: unknown[] = [
  { rules: [] },
  { default: 'ask', rules: [{ decision: 'deny' }] },
  {
    rules: [
      { tools: ['read_file', 'write_*'], paths: ['src/**'], decision: 'allow', reason: 'the sources' },
      { tools: ['shell'], commands: ['git status *'], decision: 'ask' },
      {
        agents: ['a/*'],
        clients: ['cli'],
        hosts: ['*.example.com'],
        resources: ['file:///*'],
        decision: 'deny',
      },
    ],
  },
];

/** Documents the check leaves to the schema: unusual shapes, wrong values, keys out of the schema's order. */
const unusual: unknown[] = [
  null,
  [],
  'rules',
  {},
  { rules: {} },
  { rules: [], extra: 1 },
  { rules: [], default: 'deny' },
  { default: 'maybe', rules: [] },
  { rules: [null] },
  { rules: [[]] },
  { rules: [{}] },
  { rules: [{ tools: ['x'] }] },
  { rules: [{ reason: 'no decision' }] },
  { rules: [{ decision: 'allow', tools: ['x'] }] },
  { rules: [{ decision: 'deny', reason: 'r', tools: ['x'] }] },
  { rules: [{ tools: [], decision: 'deny' }] },
  { rules: [{ tools: [''], decision: 'deny' }] },
  { rules: [{ tools: [1], decision: 'deny' }] },
  { rules: [{ tools: 'shell', decision: 'deny' }] },
  { rules: [{ tools: ['x'], tools2: ['y'], decision: 'deny' }] },
  { rules: [{ decision: 'never' }] },
  { rules: [{ decision: 'deny', reason: 3 }] },
  { rules: [{ where: { command: 'rm *' }, decision: 'deny' }] },
  { rules: [{ tools: ['x'], decision: 'allow', examples: { match: ['x'] } }] },
  { rules: [{ decision: 'deny', hasOwnProperty: ['x'] }] },
  { rules: [{ decision: 'deny', toString: 'x' }] },
  JSON.parse('{"rules":[{"__proto__":["x"],"decision":"deny"}]}'),
  { rules: [Object.assign(Object.create({ inherited: true }), { decision: 'deny' })] },
  { rules: [new Map()] },
];

describe('the check of a policy of the common shapes', () => {
  it('passes a document of common rules as it is, which is what the schema returns for it', () => {
    for (const data of common) {
      expect(commonPolicyDocument(data)).toBe(data);
      // Key order included: the document is what zod would have written.
      expect(JSON.stringify(data)).toBe(JSON.stringify(policyDocumentSchema.parse(data)));
    }
  });

  it('leaves anything else to the schema, which then says what is wrong or returns another shape', () => {
    for (const data of unusual) expect(commonPolicyDocument(data)).toBeUndefined();
  });

  it('passes only what the schema accepts and returns unchanged, over generated documents good and bad', () => {
    const generate = random(1027);
    const keys = [
      'tools',
      'agents',
      'clients',
      'paths',
      'commands',
      'hosts',
      'resources',
      'decision',
      'reason',
    ];
    const odd = ['where', 'examples', 'tool', 'Decision', '__proto__', 'constructor'];
    const values: unknown[] = [
      ['x'],
      ['a', 'b/**'],
      [],
      [''],
      ['x', 2],
      'x',
      3,
      null,
      {},
      'allow',
      'deny',
      'ask',
      'never',
    ];
    const rule = (): unknown => {
      if (generate.next() < 0.05) return generate.pick([null, [], 'rule', 1]);
      const chosen = generate.some(keys, 4);
      if (generate.next() < 0.6) chosen.push('decision');
      if (generate.next() < 0.1) chosen.push(generate.pick(odd));
      // Keys mostly in the schema's order, sometimes not.
      if (generate.next() < 0.8) chosen.sort((a, b) => keys.indexOf(a) - keys.indexOf(b));
      const written: Record<string, unknown> = {};
      for (const key of chosen)
        written[key] =
          key === 'decision' && generate.next() < 0.8
            ? generate.pick(['allow', 'deny', 'ask'])
            : key === 'reason' && generate.next() < 0.7
              ? 'why'
              : generate.pick(values);
      return JSON.parse(JSON.stringify(written));
    };
    let passed = 0;
    let refused = 0;
    for (let round = 0; round < 3000; round++) {
      const document: Record<string, unknown> = {};
      if (generate.next() < 0.5) document.default = generate.pick(['deny', 'allow', 'ask', 'maybe', 1]);
      document.rules = Array.from({ length: Math.floor(generate.next() * 4) }, rule);
      if (generate.next() < 0.05) document.extra = true;
      const judged = policyDocumentSchema.safeParse(document);
      const checked = commonPolicyDocument(document);
      if (!judged.success) refused++;
      if (checked === undefined) continue;
      passed++;
      expect(judged.success, JSON.stringify(document)).toBe(true);
      expect(JSON.stringify(checked)).toBe(JSON.stringify(judged.data));
    }
    expect(passed).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });
});
