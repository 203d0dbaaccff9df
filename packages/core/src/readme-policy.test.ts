import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { z } from 'zod';
import type { PolicyRequest } from './policy.js';
import { parsePolicyText, policyDocumentSchema } from './policy-document.js';

// The README's policy examples, taken from the README itself so the doc cannot drift from the code.
const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');
const policySection = readme.slice(
  readme.indexOf('## How policy decides'),
  readme.indexOf('### Remote schemas'),
);
const fieldsSection = policySection.slice(policySection.indexOf('### Every field of a policy'));

interface Block {
  readonly language: string;
  readonly text: string;
  readonly line: number;
}

function codeBlocks(text: string, firstLine: number): Block[] {
  const blocks: Block[] = [];
  const fence = /^( *)```(\w*)\n([\s\S]*?)^\1```$/gm;
  for (let match = fence.exec(text); match !== null; match = fence.exec(text)) {
    const indent = match[1]!.length;
    const body = match[3]!
      .split('\n')
      .map((line) => line.slice(indent))
      .join('\n');
    blocks.push({
      language: match[2]!,
      text: body,
      line: firstLine + text.slice(0, match.index).split('\n').length - 1,
    });
  }
  return blocks;
}

const sectionLine = readme.slice(0, readme.indexOf('## How policy decides')).split('\n').length;
const blocks = codeBlocks(policySection, sectionLine);
const policies = blocks.filter((block) => block.language === 'yaml');

interface Expected {
  call: Partial<PolicyRequest> & { tool: string };
  decision: string;
  reason?: string;
}

/** Each policy block followed directly by a JSON block: the policy and the verdicts it must give. */
const judged = blocks.flatMap((block, index) => {
  const next = blocks[index + 1];
  return block.language === 'yaml' && next?.language === 'json'
    ? [{ policy: block, verdicts: JSON.parse(next.text) as Expected[] }]
    : [];
});

/** Every key the schema accepts, at every depth (where's forms, examples, an example's subject). */
function schemaKeys(schema: z.ZodType, into = new Set<string>()): Set<string> {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  switch (def.type) {
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        into.add(key);
        schemaKeys(value, into);
      }
      break;
    case 'optional':
    case 'nullable':
      schemaKeys(def.innerType as z.ZodType, into);
      break;
    case 'array':
      schemaKeys(def.element as z.ZodType, into);
      break;
    case 'record':
      schemaKeys(def.valueType as z.ZodType, into);
      break;
    case 'union':
      for (const option of def.options as z.ZodType[]) schemaKeys(option, into);
      break;
  }
  return into;
}

/** Every key written in a YAML value, but those of `parameters` and `where` (the user's own names). */
function writtenKeys(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) writtenKeys(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const [key, inner] of Object.entries(value)) {
      into.add(key);
      if (key === 'parameters') continue;
      if (key === 'where')
        for (const condition of Object.values(inner as object)) writtenKeys(condition, into);
      else writtenKeys(inner, into);
    }
  return into;
}

describe("the core README's policy examples", () => {
  it('finds the examples: a policy and its verdicts for each field', () => {
    expect(policies.length).toBeGreaterThanOrEqual(15);
    expect(judged.length).toBeGreaterThanOrEqual(12);
  });

  it.each(policies.map((block) => [block.line, block]))(
    'parses the policy at README line %i',
    (_line, block) => {
      expect(() => parsePolicyText(block.text, `README.md:${block.line}`)).not.toThrow();
    },
  );

  it.each(judged.map((example) => [example.policy.line, example]))(
    'judges the calls listed after the policy at README line %i as it says',
    (_line, { policy, verdicts }) => {
      const parsed = parsePolicyText(policy.text, `README.md:${policy.line}`);
      expect(verdicts.length).toBeGreaterThan(0);
      for (const expected of verdicts) {
        const verdict = parsed.decide({ agent: 'agent', parameters: {}, ...expected.call } as PolicyRequest);
        expect({ call: expected.call, decision: verdict.decision }).toEqual({
          call: expected.call,
          decision: expected.decision,
        });
        if (expected.reason !== undefined) expect(verdict.reason).toContain(expected.reason);
      }
    },
  );

  it('shows every key the policy schema accepts in an example of "Every field of a policy"', () => {
    const shown = new Set<string>();
    for (const block of codeBlocks(fieldsSection, 0).filter((each) => each.language === 'yaml'))
      writtenKeys(parse(block.text), shown);
    const accepted = [...schemaKeys(policyDocumentSchema)].sort();
    expect(accepted).toEqual(
      expect.arrayContaining(['default', 'rules', 'where', 'regex', 'missing', 'subject']),
    );
    expect(accepted.filter((key) => !shown.has(key))).toEqual([]);
    // and every key heads its own paragraph there
    for (const key of accepted) expect(fieldsSection).toContain(`**\`${key}\`**`);
  });
});
