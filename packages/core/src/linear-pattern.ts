import { RE2JS } from 're2js';
import { ToolgateError } from './errors.js';
import { javascriptWhitespace, type PatternToken, patternTokens } from './pattern-tokens.js';

/** A regular expression compiled for an engine whose running time is linear in the text. */
export interface LinearPattern {
  /** The pattern as it was given. */
  readonly source: string;
  /** True when the pattern matches somewhere in `text` (unanchored, like JSON Schema's `pattern`). */
  test(text: string): boolean;
}

const sameInBoth = new Set([...'tnrfvdDwWbB.*+?()[]{}|^$\\-/'.split(''), 'p', 'P']);

/**
 * Compiles a JavaScript (ECMA-262, Unicode-mode) regular expression — a JSON Schema `pattern`, say —
 * for a linear-time engine (RE2, through re2js), so testing untrusted text against an untrusted
 * pattern can never backtrack for ever: `^(\w+\s?)*$` on a long line answers at once. Spellings whose
 * meaning differs are translated (`\s`, `.`, `\uXXXX`, `\cX`, `\0`); lookaround and backreferences,
 * which no linear engine can run, are refused with INVALID_DEFINITION, as is anything RE2 cannot read.
 *
 * @example
 * const digits = linearPattern('^\\d+$');
 * digits.test('2026'); // true
 */
export function linearPattern(pattern: string): LinearPattern {
  if (typeof pattern !== 'string') throw refused(String(pattern), 'it is not a string');
  if (!isJavaScriptPattern(pattern))
    throw refused(pattern, 'it is not a valid JavaScript regular expression');
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(re2Spelling(pattern));
  } catch (error) {
    if (ToolgateError.is(error)) throw error;
    throw refused(pattern, `it cannot be read: ${(error as Error).message}`);
  }
  return { source: pattern, test: (text) => compiled.matcher(text).find() };
}

/** True when JavaScript reads `pattern`, with or without the `u` flag. Compiling runs nothing. */
function isJavaScriptPattern(pattern: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {}
  }
  return false;
}

/** The RE2 spelling of a JavaScript pattern, or a refusal naming what a linear engine cannot run. */
function re2Spelling(pattern: string): string {
  let out = '';
  for (const token of patternTokens(pattern)) {
    if (token.kind === 'escape') out += re2Escape(pattern, token);
    else if (token.kind === 'class-open') {
      if (pattern[token.end] === ']') throw refused(pattern, 'it has an empty character class');
      out += token.text;
    } else if (token.kind === 'class-close') out += ']';
    else if (token.inClass) {
      if (token.char === '[' && pattern[token.end] === ':')
        throw refused(pattern, 'it has "[:" inside a class');
      out += token.char;
    } else if (token.char === '(' && /^\?(=|!|<=|<!)/.test(pattern.slice(token.end))) {
      throw refused(pattern, 'it uses lookaround');
    } else out += token.char === '.' ? '[^\\n\\r\\x{2028}\\x{2029}]' : token.char;
  }
  return out;
}

/** The RE2 spelling of one escape (`\s` spelled out, `\u`, `\c`, `\0`, `\x` as `\x{…}`), or a refusal. */
function re2Escape(pattern: string, token: PatternToken & { kind: 'escape' }): string {
  const { letter, text, inClass } = token;
  if (letter === undefined) throw refused(pattern, 'it ends with a lone backslash');
  if (letter === 's') return inClass ? javascriptWhitespace : `[${javascriptWhitespace}]`;
  if (letter === 'S' && inClass) throw refused(pattern, 'it uses \\S inside a character class');
  if (letter === 'S') return `[^${javascriptWhitespace}]`;
  if (letter === 'u') {
    if (text.length === 2) throw refused(pattern, 'it has a malformed \\u escape');
    const code = Number.parseInt(text.replace(/^\\u\{?|\}$/g, ''), 16);
    if (code >= 0xd800 && code <= 0xdfff) throw refused(pattern, 'it names a lone surrogate');
    return `\\x{${code.toString(16)}}`;
  }
  if (letter === 'c' && text.length === 3) return `\\x{${(text.charCodeAt(2) % 32).toString(16)}}`;
  if (letter === '0' && !/^[0-9]$/.test(pattern[token.end] ?? '')) return '\\x{0}';
  if (letter === 'x' && text.length === 4) return `\\x${text.slice(2)}`;
  if (/^[1-9k]$/.test(letter)) throw refused(pattern, 'it uses a backreference');
  if (sameInBoth.has(letter)) return `\\${letter}`;
  throw refused(pattern, `it uses the escape \\${letter}`);
}

function refused(pattern: string, why: string): ToolgateError {
  const shown = pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern;
  return new ToolgateError(
    'INVALID_DEFINITION',
    `the pattern ${JSON.stringify(shown)} cannot run in linear time: ${why}; ` +
      'rewrite it without lookaround or backreferences',
  );
}
