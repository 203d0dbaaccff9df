import picomatch from 'picomatch';
import { ToolgateError } from './errors.js';
import type { JsonObject, JsonValue } from './json.js';
import { linearPattern } from './linear-pattern.js';

/**
 * What one argument must be for a rule to apply: a glob over the string at a JSON pointer
 * (`POST`, `https://api.example.com/*`), or `{ glob }` / `{ regex }` (RE2 syntax, linear time,
 * found anywhere unless anchored with `^…$`). `missing: 'matches'` (deny rules only) makes an
 * argument that is absent or not a string match too; without it such an argument never matches.
 */
export type ArgumentPredicate =
  | string
  | { readonly glob: string; readonly missing?: 'matches' }
  | { readonly regex: string; readonly missing?: 'matches' };

/** A rule's `where`: JSON pointers into the parameters (`/method`, `/headers/0/name`), each with its predicate. */
export type ArgumentConditions = Readonly<Record<string, ArgumentPredicate>>;

/** The value at `pointer` (RFC 6901) in `parameters`, or undefined when there is none. */
export function valueAt(parameters: JsonObject, pointer: string): JsonValue | undefined {
  if (pointer === '') return parameters;
  let value: JsonValue | undefined = parameters;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(value)) value = /^(0|[1-9]\d*)$/.test(key) ? value[Number(key)] : undefined;
    else if (typeof value === 'object' && value !== null && Object.hasOwn(value, key)) value = value[key];
    else return undefined;
  }
  return value;
}

/**
 * Compiles a rule's `where` into one test over a call's parameters: true when every predicate
 * holds. A pattern that is not a JSON pointer, a regex RE2 refuses, or `missing: 'matches'` on a
 * rule that allows or asks (it would let through what toolgate could not read) is INVALID_DEFINITION.
 */
export function compileWhere(
  where: ArgumentConditions,
  denies: boolean,
  source: string,
): (parameters: JsonObject) => boolean {
  const tests = Object.entries(where).map(([pointer, predicate]) => {
    if (pointer !== '' && !pointer.startsWith('/'))
      throw invalid(
        `${source}.where: ${JSON.stringify(pointer)} is not a JSON pointer; write it as "/${pointer}"`,
      );
    const spelled = typeof predicate === 'string' ? { glob: predicate } : predicate;
    if (spelled.missing === 'matches' && !denies)
      throw invalid(
        `${source}.where[${JSON.stringify(pointer)}]: missing: matches is for rules that deny; ` +
          'a rule that allows or asks never applies to an argument it cannot read',
      );
    const matches =
      'regex' in spelled ? linearPattern(spelled.regex).test : picomatch(spelled.glob, { dot: true });
    const missing = spelled.missing === 'matches';
    return (parameters: JsonObject) => {
      const value = valueAt(parameters, pointer);
      return typeof value === 'string' ? matches(value) : missing;
    };
  });
  return (parameters) => tests.every((test) => test(parameters));
}

function invalid(message: string): ToolgateError {
  return new ToolgateError('INVALID_DEFINITION', message);
}
