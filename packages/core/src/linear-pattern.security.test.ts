import { describe, expect, it } from 'vitest';
import { linearPattern } from './linear-pattern.js';

// Each of these backtracks exponentially in JavaScript: on the 30-character argument
// `^(\w+\s?)*$` stalled the event loop 539 ms, and every extra character doubles that. Here the
// text is 5,000 characters, which JavaScript would not finish in the lifetime of the machine; a
// linear engine answers at once. The bound only guards against a hang (the failure is forever).
describe('linearPattern on patterns that backtrack for ever in JavaScript', () => {
  it.each([['^(\\w+\\s?)*$'], ['(a+)+$'], ['(a|a)+$'], ['^(a|aa)+$'], ['(x+x+)+y']])(
    '%s answers a 5,000-character text without stalling',
    (pattern) => {
      const text = `${(pattern.includes('x') ? 'x' : 'a').repeat(5000)}!`;
      const started = performance.now();
      expect(linearPattern(pattern).test(text)).toBe(false);
      expect(linearPattern(pattern).test(text.slice(0, -1))).toBe(!pattern.endsWith('y'));
      expect(performance.now() - started).toBeLessThan(10_000);
    },
  );
});
