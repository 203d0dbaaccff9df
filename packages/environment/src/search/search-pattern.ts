import { ToolgateError } from '@toolgate/core';
import { javascriptWhitespace, patternTokens } from '@toolgate/core/internal';

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

const outsideClass: Record<string, string> = {
  w: '[0-9A-Za-z_]',
  W: '[^0-9A-Za-z_]',
  d: '[0-9]',
  D: '[^0-9]',
  s: `[${javascriptWhitespace}]`,
  S: `[^${javascriptWhitespace}]`,
  b: '(?-u:\\b)',
  B: '(?-u:\\B)',
};
const insideClass: Record<string, string> = { w: '0-9A-Za-z_', d: '0-9', s: javascriptWhitespace };
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
  for (const token of patternTokens(pattern)) {
    if (token.kind === 'escape') {
      const spelled = ripgrepEscape(token.letter, token.inClass);
      if (spelled === undefined) return undefined;
      out += spelled;
    } else if (token.kind === 'class-open') {
      if (pattern[token.end] === ']') return undefined;
      inClass = true;
      out += token.text;
    } else if (token.kind === 'class-close') {
      inClass = false;
      out += ']';
    } else if (token.inClass) {
      if (token.char === '[') return undefined;
      out += token.char;
    } else {
      if (token.char === '(' && pattern[token.end] === '?' && pattern[token.end + 1] !== ':')
        return undefined;
      if (token.char === '{' && !/^\{\d+(,\d*)?\}/.test(pattern.slice(token.start))) return undefined;
      out += token.char;
    }
  }
  return inClass ? undefined : out;
}

/** The ripgrep spelling of the escape `\letter`, or undefined when the engines could read it differently. */
function ripgrepEscape(letter: string | undefined, inClass: boolean): string | undefined {
  if (letter === undefined) return undefined;
  if (inClass && letter in insideClass) return insideClass[letter];
  if (inClass && 'WDSbB'.includes(letter)) return undefined;
  if (!inClass && letter in outsideClass) return outsideClass[letter];
  if (letter === '/') return '/';
  if (portableEscapes.has(letter)) return `\\${letter}`;
  return undefined;
}
