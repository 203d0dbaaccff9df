import { ToolgateError } from '@toolgate/core';

/**
 * Compiles a search pattern as a JavaScript regular expression with the `u` and `s` flags (so `.`
 * matches any code point but the line break that ends every line). The JavaScript engine defines
 * what a pattern means; ripgrep is only used for patterns it reads the same way.
 */
export function compileSearchPattern(pattern: unknown): RegExp {
  if (typeof pattern !== 'string' || pattern === '') {
    throw new ToolgateError('INVALID_PATH', 'the search pattern must be a non-empty regular expression');
  }
  if (pattern.includes('\0')) {
    throw new ToolgateError('INVALID_PATH', 'the search pattern contains a NUL byte; remove it');
  }
  try {
    return new RegExp(pattern, 'su');
  } catch (error) {
    throw new ToolgateError(
      'INVALID_PATH',
      `the search pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

const whitespace =
  '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
const outsideClass: Record<string, string> = {
  w: '[0-9A-Za-z_]',
  W: '[^0-9A-Za-z_]',
  d: '[0-9]',
  D: '[^0-9]',
  s: `[${whitespace}]`,
  S: `[^${whitespace}]`,
  b: '(?-u:\\b)',
  B: '(?-u:\\B)',
};
const insideClass: Record<string, string> = { w: '0-9A-Za-z_', d: '0-9', s: whitespace };
const portableEscapes = new Set([...'tnrfv.*+?()[]{}|^$\\-'.split(''), 'p', 'P']);

/**
 * The ripgrep (Rust regex) spelling of a JavaScript pattern, or undefined when the two engines
 * could read it differently (lookaround, backreferences, named groups, `\c`, `\u`, `\0`, …), in
 * which case the JavaScript engine searches instead. Unicode-aware classes are spelled out so both
 * engines agree: `\w`, `\d`, `\b` are ASCII as in JavaScript, `\s` is JavaScript's whitespace set.
 */
export function ripgrepPattern(pattern: string): string | undefined {
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next === undefined) return undefined;
      index++;
      if (inClass && next in insideClass) out += insideClass[next];
      else if (inClass && 'WDSbB'.includes(next)) return undefined;
      else if (!inClass && next in outsideClass) out += outsideClass[next];
      else if (next === '/') out += '/';
      else if (portableEscapes.has(next)) out += `\\${next}`;
      else return undefined;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      else if (char === '[') return undefined;
      out += char;
      continue;
    }
    if (char === '[') {
      inClass = true;
      out += char;
      if (pattern[index + 1] === '^') out += pattern[++index];
      if (pattern[index + 1] === ']') return undefined;
      continue;
    }
    if (char === '(' && pattern[index + 1] === '?') {
      if (pattern[index + 2] !== ':') return undefined;
    }
    if (char === '{' && !/^\{\d+(,\d*)?\}/.test(pattern.slice(index))) return undefined;
    out += char;
  }
  return inClass ? undefined : out;
}
