/**
 * One piece of a JavaScript (ECMA-262) regular expression's source, as the translators of toolgate
 * read it: core's `linearPattern` (to RE2) and the environment's search pattern (to ripgrep). Each
 * knows where it is (`start`, `end` in the source) so a translator can look at what follows.
 */
export type PatternToken =
  | {
      /** A backslash escape: `\d`, `\/`, and whole when well formed: `\u{1f600}`, `\u00e9`, `\cA`, `\x41`. */
      readonly kind: 'escape';
      /** The character after the backslash; undefined for a lone backslash at the end. */
      readonly letter: string | undefined;
      /** The escape as written: `\u{1f600}` when well formed, else the backslash and its letter. */
      readonly text: string;
      /** Whether it stands inside a character class. */
      readonly inClass: boolean;
      readonly start: number;
      readonly end: number;
    }
  | {
      /** `[` or `[^`, opening a character class. */
      readonly kind: 'class-open';
      readonly negated: boolean;
      readonly text: '[' | '[^';
      readonly start: number;
      readonly end: number;
    }
  | {
      /** The `]` that closes a character class. */
      readonly kind: 'class-close';
      readonly start: number;
      readonly end: number;
    }
  | {
      /** Any other character (`.`, `(`, `{`, a letter; `[` inside a class), one UTF-16 unit. */
      readonly kind: 'char';
      readonly char: string;
      readonly inClass: boolean;
      readonly start: number;
      readonly end: number;
    };

/**
 * JavaScript's `\s` set, spelled for RE2 and Rust's regex (ripgrep) inside a class: both translators
 * spell `\s` as this, since those engines read `\s` differently.
 */
export const javascriptWhitespace =
  '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';

/**
 * The tokens of a regular expression's source, left to right: escapes (with their whole sequence
 * when it is one of JavaScript's multi-character forms), character classes opened and closed, and
 * single characters. It checks nothing beyond that: each translator decides what it can spell.
 *
 * @example
 * [...patternTokens('[^\\d]x')].map((token) => token.kind); // ['class-open', 'escape', 'class-close', 'char']
 */
export function* patternTokens(pattern: string): Generator<PatternToken> {
  let inClass = false;
  let index = 0;
  while (index < pattern.length) {
    const start = index;
    const char = pattern[index]!;
    if (char === '\\') {
      const letter = pattern[index + 1];
      const length = letter === undefined ? 1 : escapeLength(pattern, index);
      index += length;
      yield { kind: 'escape', letter, text: pattern.slice(start, index), inClass, start, end: index };
      continue;
    }
    if (!inClass && char === '[') {
      inClass = true;
      const negated = pattern[index + 1] === '^';
      index += negated ? 2 : 1;
      yield { kind: 'class-open', negated, text: negated ? '[^' : '[', start, end: index };
      continue;
    }
    index++;
    if (inClass && char === ']') {
      inClass = false;
      yield { kind: 'class-close', start, end: index };
      continue;
    }
    yield { kind: 'char', char, inClass, start, end: index };
  }
}

/** How many characters the escape at `index` spans: the backslash, its letter, and a well-formed tail. */
function escapeLength(pattern: string, index: number): number {
  const rest = pattern.slice(index + 1);
  const unicode = /^u\{[0-9A-Fa-f]{1,6}\}|^u[0-9A-Fa-f]{4}/.exec(rest);
  if (unicode) return 1 + unicode[0].length;
  if (/^c[A-Za-z]/.test(rest)) return 3;
  if (/^x[0-9A-Fa-f]{2}/.test(rest)) return 4;
  return 2;
}
