import { ToolgateError } from '@toolgate/core';
import { basename, unwrapCommand } from './command-wrappers.js';
import { parseShellLine, type ShellCommand, type ShellRedirect } from './shell-line.js';
import { refuse, unsafeTokenPrefix } from './shell-words.js';

export { unsafeTokenPrefix } from './shell-words.js';

/**
 * The longest command line, in UTF-8 bytes, a shell can be given: it is passed to `sh -c` as one
 * argument, and Linux caps one argument at 128 KiB (MAX_ARG_STRLEN, its NUL included).
 */
export const maxCommandBytes = 131_071;

/** How deep `sh -c '… sh -c "…"'` is followed before the line is refused. */
export const maxShellDepth = 4;

/** What a shell line runs and touches, for policy. */
export interface ShellSubject {
  /**
   * The argv of every command the line runs: each as the shell passes it, then as policy should
   * also see it (without leading `NAME=value` assignments, the command a wrapper runs, the commands
   * of an `sh -c` line; a rule denying `rm …` matches `/bin/rm …` by its basename in core). A token starting with a
   * NUL byte stands for words known only when the line runs (a glob, a variable, arguments from
   * stdin) or, last in an argv, for code the gate cannot read.
   */
  readonly commands: string[][];
  /** Files the line's redirections read or write, as written (relative to the shell's directory). */
  readonly paths: string[];
}

/** Leading assignments that make a program load or run code of the caller's choosing. */
const codeVariables = new Set([
  'LD_PRELOAD',
  'LD_AUDIT',
  'LD_LIBRARY_PATH',
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
]);
/** Built-ins that change how the shell reads the commands after them, differently in dash and bash. */
const dialectChangers = new Set(['alias', 'unalias', 'shopt', 'enable', 'hash']);
const directoryChangers = new Set(['cd', 'pushd', 'popd']);
/** Commands that set variables for the programs they run or for the shell. */
const setsVariables = new Set(['env', 'sudo', 'doas', 'export', 'declare', 'typeset', 'readonly', 'local']);

/**
 * Judges a shell line: every command it runs, seen through wrappers, and every file it redirects.
 * The line is parsed by toolgate's own POSIX-shell parser for the subset dash and bash read alike;
 * anything else is refused with `INVALID_PARAMETERS` naming the construct (see the README).
 *
 * @example
 * shellSubject('env FOO=1 /bin/rm -f a > log');
 * // { commands: [['env', 'FOO=1', '/bin/rm', '-f', 'a'], ['/bin/rm', '-f', 'a']], paths: ['log'] }
 */
export function shellSubject(command: string): ShellSubject {
  const bytes = command.length > maxCommandBytes / 3 ? Buffer.byteLength(command) : command.length;
  if (bytes > maxCommandBytes) {
    throw new ToolgateError(
      'INVALID_PARAMETERS',
      `the command is ${bytes} bytes long; a shell command line can be at most ${maxCommandBytes} bytes ` +
        '(it is passed to sh -c as one argument, which Linux caps at 128 KiB): write long content to a ' +
        'file with write_file and run a command that reads it',
    );
  }
  const judged = new Judged();
  judgeLine(command, 0, judged);
  return { commands: judged.commands, paths: judged.paths };
}

/**
 * Every command of a shell line as argv tokens, for policy rules to match: what
 * {@link shellSubject} gives as `commands`.
 *
 * @example
 * commandSubject('npm test && timeout 5 rm -rf build');
 * // [['npm', 'test'], ['timeout', '5', 'rm', '-rf', 'build'], ['rm', '-rf', 'build']]
 */
export function commandSubject(command: string): string[][] {
  return shellSubject(command).commands;
}

class Judged {
  readonly commands: string[][] = [];
  readonly paths: string[] = [];
  readonly #seen = new Set<string>();
  readonly #redirects: ShellRedirect[] = [];
  changesDirectory = false;

  add(argv: readonly string[]): void {
    const key = JSON.stringify(argv);
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.commands.push([...argv]);
  }

  redirect(redirect: ShellRedirect): void {
    this.#redirects.push(redirect);
    if (redirect.operator === '<&' || redirect.operator === '>&') return;
    if (redirect.target === '/dev/null') return;
    if (!this.paths.includes(redirect.target)) this.paths.push(redirect.target);
  }

  finish(): void {
    if (!this.changesDirectory) return;
    const relative = this.paths.find((path) => !path.startsWith('/'));
    if (relative !== undefined)
      refuse(
        `changes directory (cd) and then redirects to ${JSON.stringify(relative)}, a path toolgate would judge from the wrong directory`,
        'write the redirection target as a path from the workspace root, or run the command without cd',
      );
  }
}

function judgeLine(line: string, depth: number, judged: Judged): void {
  for (const pipeline of parseShellLine(line)) {
    for (const command of pipeline.commands) {
      judgeCommand(command, depth, judged);
      // A command left running with `&` is judged as one only a rule that denies can match.
      if (pipeline.background && command.argv.length > 0)
        judged.add([
          ...command.assignments,
          ...command.argv,
          `${unsafeTokenPrefix}background:left running by &`,
        ]);
    }
  }
  judged.finish();
}

function judgeCommand(command: ShellCommand, depth: number, judged: Judged): void {
  for (const redirect of command.redirects) judged.redirect(redirect);
  if (command.argv.length === 0) return;
  judged.add([...command.assignments, ...command.argv]);
  const loadsCode = command.assignments.map(variableName).find((name) => codeVariables.has(name));
  if (loadsCode !== undefined)
    judged.add([...command.assignments, ...command.argv, `${unsafeTokenPrefix}code:${loadsCode} loads code`]);
  judgeArgv(command.argv, depth, judged);
}

function judgeArgv(argv: readonly string[], depth: number, judged: Judged): void {
  judged.add(argv);
  const name = basename(argv[0]!);
  if (dialectChangers.has(name))
    refuse(
      `runs ${name}, which changes how the shell reads later commands (differently in dash and bash)`,
      `run the commands without ${name}`,
    );
  if (directoryChangers.has(name)) judged.changesDirectory = true;
  if (
    name === 'set' &&
    !argv.slice(1).every((word) => /^[-+][eux]+$|^-o$|^(pipefail|errexit|nounset|xtrace)$/.test(word))
  )
    refuse('runs set with options other than -e, -u, -x or -o pipefail', 'run the commands without set');
  const exported = setsVariables.has(name)
    ? argv
        .slice(1)
        .map(variableName)
        .find((variable) => codeVariables.has(variable))
    : undefined;
  if (exported !== undefined) judged.add([...argv, `${unsafeTokenPrefix}code:${exported} loads code`]);
  const unwrapped = unwrapCommand(argv);
  switch (unwrapped.kind) {
    case 'none':
      return;
    case 'code':
      judged.add([...argv, `${unsafeTokenPrefix}code:${unwrapped.reason}`]);
      return;
    case 'runs':
      // Each inner command is a strict part of its wrapper's argv, so this ends.
      for (const inner of unwrapped.commands) if (inner.length > 0) judgeArgv(inner, depth, judged);
      return;
    case 'line':
      if (depth >= maxShellDepth)
        refuse(
          `nests ${unwrapped.shell} -c more than ${maxShellDepth} deep`,
          'run the inner command directly',
        );
      if (unwrapped.shell === 'zsh' && /[=^]/.test(unwrapped.line)) {
        judged.add([...argv, `${unsafeTokenPrefix}code:zsh expands = and ^ where sh does not`]);
        return;
      }
      judgeLine(unwrapped.line, depth + 1, judged);
      return;
  }
}

/** The name `NAME=value` assigns (a token known only at run time keeps its text after the marker). */
function variableName(word: string): string {
  const text = word.startsWith(unsafeTokenPrefix) ? word.slice(word.indexOf(':') + 1) : word;
  return text.slice(0, Math.max(0, text.indexOf('=')));
}
