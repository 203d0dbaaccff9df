import { refuse, type ShellToken, type ShellWord, tokenizeShell } from './shell-words.js';

/** A redirection of a simple command: a file it reads or writes, or a descriptor it duplicates. */
export interface ShellRedirect {
  /** `<`, `>`, `>>`, `>|`, `<>`, `<&` or `>&`. */
  readonly operator: string;
  readonly fd?: number;
  /** The file, or for `<&` / `>&` the descriptor (`1`, `-`). */
  readonly target: string;
}

/** One simple command: its leading assignments, its argv as the shell passes it, its redirections. */
export interface ShellCommand {
  readonly assignments: readonly string[];
  readonly argv: readonly string[];
  readonly redirects: readonly ShellRedirect[];
}

/** A pipeline of a line and the operator that joined it to the one before (`;` first). */
export interface ShellPipeline {
  readonly after: ';' | '&&' | '||' | '&' | '\n';
  /** True when a `&` follows it: it runs in the background. */
  readonly background: boolean;
  readonly commands: readonly ShellCommand[];
}

/** Words that open compound commands or change parsing; refused where a command name stands. */
const reservedWords = new Set([
  '!',
  '{',
  '}',
  'case',
  'do',
  'done',
  'elif',
  'else',
  'esac',
  'fi',
  'for',
  'if',
  'in',
  'then',
  'until',
  'while',
  '[[',
  ']]',
  'function',
  'select',
  'coproc',
  'time',
]);

const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Parses a shell line into pipelines of simple commands, for the subset of the POSIX shell language
 * on which dash and bash agree (words, quotes, `\`, `;`, `&&`, `||`, `|`, `&`, line breaks,
 * comments, redirections to files and descriptors). Refuses everything else, naming it.
 *
 * @example
 * parseShellLine('FOO=1 npm test > out.txt && rm x');
 * // [{ after: ';', background: false, commands: [{ assignments: ['FOO=1'], argv: ['npm', 'test'],
 * //    redirects: [{ operator: '>', target: 'out.txt' }] }] }, { after: '&&', … argv: ['rm', 'x'] …}]
 */
export function parseShellLine(line: string): ShellPipeline[] {
  const tokens = tokenizeShell(line);
  const pipelines: ShellPipeline[] = [];
  let after = ';' as ShellPipeline['after'];
  let commands: ShellCommand[] = [];
  let index = 0;
  const endPipeline = (operator: string) => {
    if (commands.length === 0) {
      if (operator === '\n' || operator === ';') {
        if (operator === ';') refuse('has a ; with no command before it', 'remove the extra ;');
        return;
      }
      refuse(`has ${JSON.stringify(operator)} with no command before it`, 'put a command on each side');
    }
    pipelines.push({ after, background: operator === '&', commands });
    commands = [];
    after = operator === '&' ? '&' : (operator as ShellPipeline['after']);
  };
  while (index < tokens.length) {
    const { command, next } = readCommand(tokens, index);
    index = next;
    const token = tokens[index];
    if (command) commands.push(command);
    if (token === undefined) break;
    if (token.kind !== 'operator') throw new Error('unreachable: readCommand stops at an operator');
    if (token.operator === '|') {
      if (!command) refuse('has a | with no command before it', 'put a command on each side of |');
      const following = tokens[index + 1];
      if (following === undefined || (following.kind === 'operator' && !isRedirect(following.operator)))
        refuse('has a | with no command after it', 'put a command on each side of |');
      index += 1;
      continue;
    }
    if (!command && commands.length === 0 && token.operator !== '\n') {
      refuse(`has ${JSON.stringify(token.operator)} with no command before it`, 'put a command on each side');
    }
    if (!command && commands.length > 0) refuse('has a | with no command after it', 'put a command after |');
    endPipeline(token.operator);
    index += 1;
  }
  if (commands.length > 0) pipelines.push({ after, background: false, commands });
  else if (after === '&&' || after === '||') refuse(`ends with ${after}`, 'put a command after it');
  return pipelines;
}

function isRedirect(operator: string): boolean {
  return operator.startsWith('<') || operator.startsWith('>');
}

function readCommand(tokens: ShellToken[], start: number): { command?: ShellCommand; next: number } {
  const assignments: string[] = [];
  const argv: string[] = [];
  const redirects: ShellRedirect[] = [];
  let index = start;
  for (; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.kind === 'operator') {
      if (!isRedirect(token.operator)) break;
      const target = tokens[index + 1];
      if (target?.kind !== 'word') refuse(`has ${token.operator} with no file after it`, 'name the file');
      index += 1;
      redirects.push(redirectOf(token.operator, token.fd, target.word));
      continue;
    }
    const { word } = token;
    if (argv.length === 0) {
      if (!word.quoted && word.unknown === undefined && reservedWords.has(word.text))
        refuse(
          `uses ${JSON.stringify(word.text)} where a command stands (a keyword of the shell language)`,
          'run plain commands joined by ; && || or |',
        );
      if (isAssignment(word)) {
        assignments.push(word.text);
        continue;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*\+=/.test(word.plain))
        refuse(
          `uses ${JSON.stringify(word.text)} (+= assigns in bash but is a command name in dash)`,
          'write NAME=value',
        );
    }
    argv.push(word.text);
  }
  if (assignments.length === 0 && argv.length === 0 && redirects.length === 0) return { next: index };
  return { command: { assignments, argv, redirects }, next: index };
}

/** `NAME=value` with `NAME=` neither quoted nor escaped: the value may be anything. */
function isAssignment(word: ShellWord): boolean {
  return assignment.test(word.plain);
}

function redirectOf(operator: string, fd: number | undefined, word: ShellWord): ShellRedirect {
  const at = fd === undefined ? {} : { fd };
  if (operator === '<&' || operator === '>&') {
    if (word.unknown !== undefined || !/^([0-9]|-)$/.test(word.text))
      refuse(
        `duplicates ${JSON.stringify(word.text)} with ${operator} (only a descriptor 0–9 or - means the same in dash and bash)`,
        'write > file 2>&1 to send both streams to a file',
      );
    return { operator, ...at, target: word.text };
  }
  if (word.unknown !== undefined)
    refuse(
      `redirects ${operator} to a target that is only known when the line runs (a ${word.unknown}; dash and bash expand it differently)`,
      'name the file plainly',
    );
  if (word.text === '') refuse(`redirects ${operator} to an empty file name`, 'name the file');
  if (/^\/dev\/(tcp|udp)\//.test(word.text))
    refuse(
      `redirects to ${JSON.stringify(word.text)} (a network connection in bash, a missing file in dash)`,
      'use the fetch tool for the network',
    );
  return { operator, ...at, target: word.text };
}
