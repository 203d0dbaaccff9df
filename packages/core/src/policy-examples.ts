import { ToolgateError } from './errors.js';
import type { JsonObject } from './json.js';
import type { PolicyRequest, PolicySubject } from './policy.js';
import { applies, type CompiledRule, commandTokens, judges, resourcesOf } from './policy-rules.js';

/**
 * One example call for a rule: a call as policy sees it (`subject` is what the call touches, as a
 * tool would report it; without one a rule on paths, commands or hosts cannot judge it), or, for a
 * rule on commands, a command line, split on whitespace as the rule's own commands are.
 */
export type RuleExample =
  | string
  | {
      readonly tool: string;
      readonly parameters?: JsonObject;
      readonly agent?: string;
      readonly client?: string;
      readonly subject?: PolicySubject;
    };

/** Calls a rule must judge (`match`) and must not (`not_match`), checked when the policy is built. */
export interface RuleExamples {
  readonly match?: readonly RuleExample[];
  readonly not_match?: readonly RuleExample[];
}

/** The request an example stands for. */
function requestOf(compiled: CompiledRule, example: RuleExample): PolicyRequest {
  if (typeof example !== 'string') {
    const { tool, parameters = {}, agent = 'example', client, subject } = example;
    return {
      tool,
      parameters,
      agent,
      ...(client === undefined ? {} : { client }),
      ...(subject === undefined ? {} : { subject }),
    };
  }
  const tool = compiled.rule.tools?.[0] ?? 'shell';
  return { tool, parameters: {}, agent: 'example', subject: { commands: [commandTokens(example)] } };
}

/** True when the rule judges every resource of the example (and its tool and conditions hold). */
function judgesExample(compiled: CompiledRule, example: RuleExample): boolean {
  const request = requestOf(compiled, example);
  if (typeof example !== 'string' && !compiled.tool(request.tool)) return false;
  if (!applies(compiled, request)) return false;
  return resourcesOf(request.subject).every((resource) => judges(compiled, resource));
}

/**
 * Checks every rule's examples: a rule that does not judge one of its `match` calls, or judges one
 * of its `not_match` calls, does not mean what its author thinks, and the policy is refused
 * (INVALID_DEFINITION naming the rule and the example) before any agent runs. A command-line
 * example on a rule without `commands` is refused too.
 */
export function checkExamples(rules: readonly CompiledRule[]): void {
  for (const compiled of rules) {
    const { examples } = compiled.rule;
    if (examples === undefined) continue;
    for (const [kind, expected] of [
      ['match', true],
      ['not_match', false],
    ] as const) {
      for (const [position, example] of (examples[kind] ?? []).entries()) {
        const where = `rules[${compiled.index}].examples.${kind}[${position}]`;
        if (typeof example === 'string' && compiled.rule.commands === undefined)
          throw new ToolgateError(
            'INVALID_DEFINITION',
            `${where}: a command line is an example only for a rule on commands; write the call as { tool, subject }`,
          );
        if (judgesExample(compiled, example) !== expected)
          throw new ToolgateError(
            'INVALID_DEFINITION',
            `${where}: the rule ${expected ? 'does not judge' : 'judges'} ${JSON.stringify(example)}, ` +
              `which it says it ${expected ? 'should' : 'should not'}; fix the rule or the example`,
          );
      }
    }
  }
}
