import { ToolgateError } from '@toolgate/core';

/** Marks a token no plain policy rule can match: rules are typed text, and never hold a NUL byte. */
export const unsafeTokenPrefix = '\u0000';

/** A word of a shell line after quote removal, as both dash and bash would pass it to a program. */
export interface ShellWord {
  /** The word's text; a NUL-prefixed token when the shell decides it only when the line runs. */
  readonly text: string;
  /** Why the word is not known before the line runs (a glob, a variable, `~`, a brace). */
  readonly unknown?: string;
  /** True when any part of the word was quoted or escaped (a quoted `if` is not a keyword). */
  readonly quoted: boolean;
  /** The leading characters that were neither quoted nor escaped (for `NAME=value` and keywords). */
  readonly plain: string;
}

/** A token of a shell line: a word, or an operator (`;`, `&&`, `|`, newline, a redirection). */
export type ShellToken =
  | { readonly kind: 'word'; readonly word: ShellWord }
  | { readonly kind: 'operator'; readonly operator: string; readonly fd?: number };

/** Refuses a line (`PERMISSION_DENIED`): what the construct is and what to write instead. */
export function refuse(what: string, hint: string): never {
  throw new ToolgateError(
    'PERMISSION_DENIED',
    `toolgate refused the shell line: it ${what}, and toolgate runs only lines it can read exactly as dash and bash do; ${hint}`,
  );
}

const blank = new Set([' ', '\t']);
const operatorStart = new Set([';', '&', '|', '<', '>', '\n']);
/** Characters after `$` that leave it a literal `$` in dash and bash alike. */
const literalAfterDollar = /^[\s/.,:=%+]$/;

/**
 * Splits a shell line into words and operators by the POSIX rules, for the subset on which dash
 * and bash agree. Anything outside it — ANSI-C or locale quoting, command substitution, arithmetic,
 * here-documents, subshells and groups, bash-only operators, unbalanced quotes, control characters —
 * is refused with an error that names it.
 */
export function tokenizeShell(line: string): ShellToken[] {
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(line))
    refuse('holds a lone UTF-16 surrogate', 'send the line as valid text');
  const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.exec(line);
  if (control) {
    const code = control[0].codePointAt(0)!.toString(16).padStart(4, '0');
    refuse(`holds the control character U+${code.toUpperCase()}`, 'write the line as plain text');
  }
  const tokens: ShellToken[] = [];
  let index = 0;
  let text = '';
  let plain = '';
  let inPlain = true;
  let started = false;
  let quoted = false;
  let unknown: string | undefined;
  const literal = (characters: string, isQuoted: boolean) => {
    text += characters;
    started = true;
    if (isQuoted) {
      quoted = true;
      inPlain = false;
    } else if (inPlain) plain += characters;
  };
  const mark = (reason: string) => {
    unknown ??= reason;
    started = true;
    inPlain = false;
  };
  let braced = false;
  const finish = () => {
    if (!started) return;
    // bash expands {a,b} and {1..3}; dash leaves them as they are.
    if (braced && /\{[^}]*(,|\.\.)[^}]*\}/.test(text)) unknown ??= 'brace';
    braced = false;
    const word: ShellWord = {
      text: unknown === undefined ? text : `${unsafeTokenPrefix}${unknown}:${text}`,
      ...(unknown === undefined ? {} : { unknown }),
      quoted,
      plain,
    };
    tokens.push({ kind: 'word', word });
    text = '';
    plain = '';
    inPlain = true;
    started = false;
    quoted = false;
    unknown = undefined;
  };
  const dollar = (inDouble: boolean) => {
    const next = line[index + 1];
    if (next === undefined || literalAfterDollar.test(next) || (inDouble && next === '"')) {
      if (!inDouble && next === undefined) literal('$', false);
      else literal('$', inDouble);
      index += 1;
      return;
    }
    if (next === "'") refuse("uses $'…' (ANSI-C quoting, which dash does not have)", "use plain '…' quotes");
    if (next === '"') refuse('uses $"…" (locale quoting, which dash does not have)', 'use plain "…" quotes');
    if (next === '(')
      refuse('uses $(…) (a command or arithmetic substitution)', 'run the inner command on its own');
    if (next === '[') refuse('uses $[…] (bash-only arithmetic)', 'compute the value first');
    if (next === '{') {
      const parameter = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(line.slice(index));
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell syntax, named for the model
      if (!parameter) refuse('uses a ${…} parameter expansion', 'write the value itself');
      literal(parameter[0], inDouble);
      mark('variable');
      index += parameter[0].length;
      return;
    }
    const named = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(line.slice(index));
    if (!named) refuse(`uses $ followed by ${JSON.stringify(next)}`, "quote the $ ('$')");
    literal(named[0], inDouble);
    mark('variable');
    index += named[0].length;
  };
  while (index < line.length) {
    const character = line[index]!;
    if (character === "'") {
      const end = line.indexOf("'", index + 1);
      if (end < 0) refuse("has an unbalanced ' quote", "close every ' quote");
      literal(line.slice(index + 1, end), true);
      started = true;
      quoted = true;
      inPlain = false;
      index = end + 1;
    } else if (character === '"') {
      started = true;
      quoted = true;
      inPlain = false;
      index += 1;
      for (;;) {
        const inner = line[index];
        if (inner === undefined) refuse('has an unbalanced " quote', 'close every " quote');
        if (inner === '"') break;
        if (inner === '`') refuse('uses `…` (a command substitution)', 'run the inner command on its own');
        if (inner === '$') {
          dollar(true);
          continue;
        }
        if (inner === '\\') {
          const escaped = line[index + 1];
          if (escaped === '\n') index += 2;
          else if (escaped === '$' || escaped === '`' || escaped === '"' || escaped === '\\') {
            literal(escaped, true);
            index += 2;
          } else {
            literal('\\', true);
            index += 1;
          }
          continue;
        }
        literal(inner, true);
        index += 1;
      }
      index += 1;
    } else if (character === '\\') {
      const escaped = line[index + 1];
      if (escaped === undefined) refuse('ends with a lone backslash', 'remove it or quote it');
      if (escaped === '\n') index += 2;
      else {
        literal(escaped, true);
        index += 2;
      }
    } else if (character === '$') {
      dollar(false);
    } else if (character === '`') {
      refuse('uses `…` (a command substitution)', 'run the inner command on its own');
    } else if (character === '(' || character === ')') {
      refuse(
        `uses ${character} (a subshell, function or process substitution)`,
        'write the commands one after another with ; or &&',
      );
    } else if (blank.has(character)) {
      finish();
      index += 1;
    } else if (character === '#' && !started) {
      const end = line.indexOf('\n', index);
      index = end < 0 ? line.length : end;
    } else if (operatorStart.has(character)) {
      index = readOperator(line, index, tokens, (redirect) => {
        if (redirect && started && !quoted && unknown === undefined && /^[0-9]+$/.test(text)) {
          const digits = text;
          text = '';
          started = false;
          plain = '';
          return digits;
        }
        finish();
        return undefined;
      });
    } else {
      if (character === '*' || character === '?' || character === '[') mark('glob');
      else if (character === '~') mark('tilde');
      else if (character === '{') braced = true;
      literal(character, false);
      index += 1;
    }
  }
  finish();
  return tokens;
}

function readOperator(
  line: string,
  index: number,
  tokens: ShellToken[],
  takeDigits: (redirect: boolean) => string | undefined,
): number {
  const rest = line.slice(index);
  const character = line[index]!;
  if (character === '<' || character === '>') {
    const digits = takeDigits(true);
    if (digits !== undefined && digits.length > 1)
      refuse(`redirects file descriptor ${digits} (dash takes only 0–9)`, 'use a descriptor from 0 to 9');
    const fd = digits === undefined ? {} : { fd: Number(digits) };
    if (rest.startsWith('<<'))
      refuse('uses a here-document (<< or <<<)', 'write the text to a file and redirect < from it');
    const operator = /^(<>|<&|<|>>|>\||>&|>)/.exec(rest)![0];
    if (line[index + operator.length] === '(')
      refuse('uses process substitution', 'write to or read from a file');
    tokens.push({ kind: 'operator', operator, ...fd });
    return index + operator.length;
  }
  takeDigits(false);
  if (rest.startsWith('&>')) refuse('uses &> (bash only: dash reads it as & then >)', 'write > file 2>&1');
  if (rest.startsWith('|&')) refuse('uses |& (bash only)', 'write 2>&1 |');
  if (rest.startsWith(';;') || rest.startsWith(';&'))
    refuse('uses ;; or ;& (case syntax)', 'write the commands plainly');
  const operator = /^(&&|\|\||;|&|\||\n)/.exec(rest)![0];
  tokens.push({ kind: 'operator', operator });
  return index + operator.length;
}
