import { describe, expect, it } from 'vitest';
import { policyDocumentSchema } from './policy-document.js';
import { commonPolicyDocument } from './policy-document-check.js';

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
});
