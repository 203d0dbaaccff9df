import { z } from 'zod';
import { messageOf, ToolgateError } from './errors.js';
import { parseYaml, parseYamlDocument } from './lazy-dependencies.js';
import { RulePolicy } from './policy.js';
import { commonPolicyDocument } from './policy-document-check.js';
import { parseJsonPolicy } from './policy-json.js';
import { formatIssues } from './zod-issues.js';

const decision = z.enum(['allow', 'deny', 'ask']);
const patterns = z.array(z.string().min(1, 'must not be empty')).min(1, 'must name at least one pattern');

const example = z.union([
  z.string().min(1, 'must not be empty'),
  z.strictObject({
    tool: z.string().min(1, 'must not be empty'),
    parameters: z.record(z.string(), z.json()).optional(),
    agent: z.string().min(1).optional(),
    client: z.string().min(1).optional(),
    subject: z
      .strictObject({
        paths: z.array(z.string()).optional(),
        commands: z.array(z.array(z.string())).optional(),
        hosts: z.array(z.string()).optional(),
        resources: z.array(z.string()).optional(),
      })
      .optional(),
  }),
]);

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
      resources: patterns.optional(),
      examples: z
        .strictObject({ match: z.array(example).optional(), not_match: z.array(example).optional() })
        .optional(),
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
  return policyOf(data, source, false);
}

/** {@link parsePolicy}, where `fresh` data (just parsed from text, held by nobody else) of the common shapes skips zod. */
function policyOf(data: unknown, source: string, fresh: boolean): RulePolicy {
  let document = fresh ? commonPolicyDocument(data) : undefined;
  if (document === undefined) {
    const result = policyDocumentSchema.safeParse(data);
    if (!result.success) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `${source} is not a valid policy: ${formatIssues(result.error)}`,
      );
    }
    document = result.data;
  }
  try {
    return new RulePolicy(document);
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
  if (data === undefined) {
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
  }
  try {
    return policyOf(data, source, true);
  } catch (error) {
    throw withLine(error, text, source);
  }
}

/** The error with the line of the rule it names, when it names one (`rules[2]…`). */
function withLine(error: unknown, text: string, source: string): unknown {
  if (!ToolgateError.is(error)) return error;
  const rule = /: rules\[(\d+)\]/.exec(error.message)?.[1];
  if (rule === undefined) return error;
  const node = parseYamlDocument(text).getIn(['rules', Number(rule)], true) as
    | { range?: [number, number] }
    | undefined;
  if (node?.range === undefined) return error;
  const line = text.slice(0, node.range[0]).split('\n').length;
  return new ToolgateError(error.code, `${error.message} (the rule is at line ${line} of ${source})`, {
    cause: error,
  });
}
