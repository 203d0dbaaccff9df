import { ToolgateError } from '../errors.js';

/**
 * Reads an option's value as a whole number (digits only: no sign, no space, no `1e3`) within
 * bounds, or throws a ToolgateError (INVALID_DEFINITION) that echoes the value typed and says what
 * is expected: `--port must be a whole number from 0 to 65535, not "-1"`.
 *
 * @param bounds.option - the option as the user typed it (`--port`), named in the refusal
 * @param bounds.min - the least value accepted; default 0
 * @param bounds.max - the greatest value accepted; default none (up to `Number.MAX_SAFE_INTEGER`)
 *
 * @example
 * wholeNumber('5', { option: '--turns', min: 1 }); // 5
 */
export function wholeNumber(text: string, bounds: { option: string; min?: number; max?: number }): number {
  const { option, min = 0, max } = bounds;
  const value = Number(text);
  if (
    /^\d+$/.test(text) &&
    Number.isSafeInteger(value) &&
    value >= min &&
    (max === undefined || value <= max)
  )
    return value;
  const range = max !== undefined ? ` from ${min} to ${max}` : min > 0 ? ` of at least ${min}` : '';
  throw new ToolgateError(
    'INVALID_DEFINITION',
    `${option} must be a whole number${range}, not ${JSON.stringify(text)}`,
  );
}
