import { z } from 'zod';
import { messageOf, ToolgateError } from './errors.js';
import { parseYaml } from './lazy-dependencies.js';
import { type Policy, RulePolicy } from './policy.js';
import { formatIssues } from './zod-issues.js';

const decision = z.enum(['allow', 'deny', 'ask']);
const patterns = z.array(z.string().min(1, 'must not be empty')).min(1, 'must name at least one pattern');

/** The zod schema a policy written as data must satisfy. */
export const policyDocumentSchema = z.strictObject({
  default: decision.optional(),
  rules: z.array(
    z.strictObject({
      tools: patterns.optional(),
      paths: patterns.optional(),
      commands: patterns.optional(),
      hosts: patterns.optional(),
      decision,
      reason: z.string().optional(),
    }),
  ),
});

/**
 * Builds a policy from data (already parsed JSON or YAML). A bad rule is an INVALID_DEFINITION
 * error that points to it, e.g. `rules[2].decision: Invalid option`.
 */
export function parsePolicy(data: unknown, source = 'policy'): Policy {
  const result = policyDocumentSchema.safeParse(data);
  if (!result.success) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `${source} is not a valid policy: ${formatIssues(result.error)}`,
    );
  }
  return new RulePolicy(result.data);
}

/**
 * Builds a policy from JSON or YAML text (YAML is a superset of JSON, so one parser reads both).
 *
 * @example
 * const policy = parsePolicyText(await readFile('policy.yaml', 'utf8'), 'policy.yaml');
 */
export function parsePolicyText(text: string, source = 'policy'): Policy {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `${source} is not valid JSON or YAML: ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
  return parsePolicy(data, source);
}
