import { RE2JS } from 're2js';
import { ToolgateError } from './errors.js';

/** A regular expression compiled for an engine whose running time is linear in the text. */
export interface LinearPattern {
  /** The pattern as it was given. */
  readonly source: string;
  /** True when the pattern matches somewhere in `text` (unanchored, like JSON Schema's `pattern`). */
  test(text: string): boolean;
}

const whitespace =
  '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
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
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next === undefined) throw refused(pattern, 'it ends with a lone backslash');
      index++;
      if (next === 's') out += inClass ? whitespace : `[${whitespace}]`;
      else if (next === 'S' && inClass) throw refused(pattern, 'it uses \\S inside a character class');
      else if (next === 'S') out += `[^${whitespace}]`;
      else if (next === 'u') {
        const unicode = /^u\{([0-9A-Fa-f]{1,6})\}|^u([0-9A-Fa-f]{4})/.exec(pattern.slice(index));
        if (!unicode) throw refused(pattern, 'it has a malformed \\u escape');
        const code = Number.parseInt(unicode[1] ?? unicode[2]!, 16);
        if (code >= 0xd800 && code <= 0xdfff) throw refused(pattern, 'it names a lone surrogate');
        out += `\\x{${code.toString(16)}}`;
        index += unicode[0].length - 1;
      } else if (next === 'c' && /^[A-Za-z]$/.test(pattern[index + 1] ?? '')) {
        out += `\\x{${(pattern.charCodeAt(++index) % 32).toString(16)}}`;
      } else if (next === '0' && !/^[0-9]$/.test(pattern[index + 1] ?? '')) out += '\\x{0}';
      else if (next === 'x' && /^[0-9A-Fa-f]{2}$/.test(pattern.slice(index + 1, index + 3))) {
        out += `\\x${pattern.slice(index + 1, index + 3)}`;
        index += 2;
      } else if (/^[1-9k]$/.test(next)) throw refused(pattern, 'it uses a backreference');
      else if (sameInBoth.has(next)) out += `\\${next}`;
      else throw refused(pattern, `it uses the escape \\${next}`);
      continue;
    }
    if (inClass) {
      if (char === '[' && pattern[index + 1] === ':') throw refused(pattern, 'it has "[:" inside a class');
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') {
      inClass = true;
      out += char;
      if (pattern[index + 1] === '^') out += pattern[++index];
      if (pattern[index + 1] === ']') throw refused(pattern, 'it has an empty character class');
      continue;
    }
    if (char === '(' && pattern[index + 1] === '?' && /^\?(=|!|<=|<!)/.test(pattern.slice(index + 1))) {
      throw refused(pattern, 'it uses lookaround');
    }
    out += char === '.' ? '[^\\n\\r\\x{2028}\\x{2029}]' : char;
  }
  return out;
}

function refused(pattern: string, why: string): ToolgateError {
  const shown = pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern;
  return new ToolgateError(
    'INVALID_DEFINITION',
    `the pattern ${JSON.stringify(shown)} cannot run in linear time: ${why}; ` +
      'rewrite it without lookaround or backreferences',
  );
}
