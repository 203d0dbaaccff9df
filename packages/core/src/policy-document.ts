import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { messageOf, ToolgateError } from './errors.js';
import { RulePolicy } from './policy.js';
import { parseJsonPolicy } from './policy-json.js';
import { formatIssues } from './zod-issues.js';

const decision = z.enum(['allow', 'deny', 'ask']);
const patterns = z.array(z.string().min(1, 'must not be empty')).min(1, 'must name at least one pattern');

/** The zod schema a policy written as data must satisfy. */
export const policyDocumentSchema = z.strictObject({
  default: decision.optional(),
  rules: z.array(
    z.strictObject({
      tools: patterns.optional(),
      agents: patterns.optional(),
      clients: patterns.optional(),
      where: z
        .record(
          z.string(),
          z.union([
            z.string().min(1, 'must not be empty'),
            z.strictObject({
              glob: z.string().min(1, 'must not be empty'),
              missing: z.literal('matches').optional(),
            }),
            z.strictObject({
              regex: z.string().min(1, 'must not be empty'),
              missing: z.literal('matches').optional(),
            }),
          ]),
        )
        .optional(),
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
export function parsePolicy(data: unknown, source = 'policy'): RulePolicy {
  const result = policyDocumentSchema.safeParse(data);
  if (!result.success) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `${source} is not a valid policy: ${formatIssues(result.error)}`,
    );
  }
  try {
    return new RulePolicy(result.data);
  } catch (error) {
    if (!ToolgateError.is(error) || error.code !== 'INVALID_DEFINITION') throw error;
    throw new ToolgateError('INVALID_DEFINITION', `${source} is not a valid policy: ${error.message}`, {
      cause: error,
    });
  }
}

/**
 * Builds a policy from JSON or YAML text (YAML is a superset of JSON, so one parser reads both; a
 * JSON object is read by `JSON.parse`, which a generated policy of 10,000 rules parses in
 * milliseconds, not the YAML parser's second).
 *
 * @example
 * const policy = parsePolicyText(await readFile('policy.yaml', 'utf8'), 'policy.yaml');
 */
export function parsePolicyText(text: string, source = 'policy'): RulePolicy {
  let data = parseJsonPolicy(text);
  if (data !== undefined) return parsePolicy(data, source);
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
