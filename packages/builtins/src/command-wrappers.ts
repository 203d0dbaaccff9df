import { busybox, find, shellCommand, xargs } from './command-runners.js';
import { unsafeTokenPrefix } from './shell-words.js';
import { none, type Unwrapped } from './unwrapped.js';

export { laterArguments, type Unwrapped } from './unwrapped.js';

const shells = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'posh', 'yash']);
/**
 * Interpreters, with the option that hands them code on the command line. Run with neither that
 * option nor a script operand, they read code from stdin; a script file is a program like any other.
 */
const interpreters: readonly (readonly [RegExp, RegExp])[] = [
  [/^(python|pypy)[0-9.]*$/, /^-[A-Za-z]*c/],
  [/^(node|nodejs|bun)$/, /^(-[A-Za-z]*[ep]|--eval|--print)/],
  [/^deno$/, /^eval$/],
  [/^perl[0-9.]*$/, /^-[A-Za-z]*[eE]/],
  [/^ruby[0-9.]*$/, /^-[A-Za-z]*e/],
  [/^php[0-9.]*$/, /^-[A-Za-z]*[ra]/],
  [/^(lua[0-9.]*|luajit|osascript)$/, /^-e/],
  [/^(R|Rscript)$/, /^(-e|--expr)/],
  [/^(tclsh[0-9.]*|wish|irb|jshell)$/, /^-/],
];
/** awk and sed take their program as an argument, and both can run commands from it. */
const programTakers = /^(awk|gawk|mawk|nawk|sed|gsed)$/;
/**
 * Programs that run a command line they are given as text (`watch`, `su -c`, `ssh`), or wrap a
 * command with a syntax toolgate does not follow: what they run is unknown.
 */
const opaqueRunners =
  /^(watch|su|runuser|script|parallel|ssh|tmux|screen|setsid|flock|chroot|unshare|nsenter|ionice|taskset|chrt|systemd-run|strace|ltrace|gdb|valgrind|unbuffer|expect|xterm|dbus-run-session|firejail|bwrap|proot|fakeroot|faketime|catchsegv|numactl|prlimit|cgexec|sg|newgrp|pkexec)$/;
/** Shell built-ins that run a string or a file as code in the shell itself. */
const evaluators = new Set(['eval', 'source', '.', 'trap', 'fc']);

/**
 * Options of a wrapper: those that take a value (`-n 5`, `-n5`, `--adjustment=5`), those that do
 * not, and whether an unknown option makes the command unknown. A wrapper's first operand is the
 * command it runs; `operandsBefore` counts operands that come first (`timeout 5 …`).
 */
interface WrapperSyntax {
  readonly valued: readonly string[];
  readonly flags: readonly string[];
  readonly operandsBefore?: number;
  /** `NAME=value` words before the command are assignments (env, sudo). */
  readonly assignments?: boolean;
  /** An option such as `nice -5`. */
  readonly numeric?: boolean;
  /** Options after which the wrapper runs nothing (`command -v`). */
  readonly inert?: readonly string[];
  /** Options after which the wrapper runs a shell the gate cannot read (`sudo -s`). */
  readonly shell?: readonly string[];
}

const wrappers: Record<string, WrapperSyntax> = {
  env: {
    valued: ['-u', '--unset', '-C', '--chdir'],
    flags: ['-i', '-', '-0', '-v', '--ignore-environment', '--null', '--debug'],
    assignments: true,
    shell: ['-S', '--split-string'],
  },
  command: { valued: [], flags: ['-p'], inert: ['-v', '-V'] },
  builtin: { valued: [], flags: [] },
  exec: { valued: ['-a'], flags: ['-c', '-l'] },
  nice: { valued: ['-n', '--adjustment'], flags: [], numeric: true },
  nohup: { valued: [], flags: [] },
  timeout: {
    valued: ['-s', '--signal', '-k', '--kill-after'],
    flags: ['-v', '--verbose', '--preserve-status', '--foreground'],
    operandsBefore: 1,
  },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'], flags: [] },
  time: {
    valued: ['-f', '--format', '-o', '--output'],
    flags: ['-p', '-a', '--append', '-v', '--verbose', '-q', '--quiet'],
  },
  sudo: {
    valued: [
      '-u',
      '--user',
      '-g',
      '--group',
      '-C',
      '--close-from',
      '-D',
      '--chdir',
      '-h',
      '--host',
      '-p',
      '--prompt',
      '-r',
      '--role',
      '-t',
      '--type',
      '-T',
      '--command-timeout',
      '-U',
      '--other-user',
    ],
    flags: [
      '-A',
      '--askpass',
      '-b',
      '--background',
      '-E',
      '--preserve-env',
      '-H',
      '--set-home',
      '-n',
      '--non-interactive',
      '-P',
      '--preserve-groups',
      '-S',
      '--stdin',
      '-B',
      '--bell',
      '-N',
      '--no-update',
      '-k',
      '--reset-timestamp',
    ],
    assignments: true,
    inert: [
      '-l',
      '--list',
      '-v',
      '--validate',
      '-V',
      '--version',
      '-K',
      '--remove-timestamp',
      '-e',
      '--edit',
    ],
    shell: ['-s', '--shell', '-i', '--login'],
  },
  doas: { valued: ['-u', '-C'], flags: ['-n'], inert: ['-L'], shell: ['-s'] },
};

/**
 * What `argv` runs besides itself, by the documented syntax of the wrapper it names (matched on
 * its basename, so `/usr/bin/env` is `env`). An option the gate does not know makes the command
 * `code`: whatever it runs, the gate cannot say.
 */
export function unwrapCommand(argv: readonly string[]): Unwrapped {
  const name = basename(argv[0] ?? '');
  if (name.startsWith(unsafeTokenPrefix))
    return { kind: 'code', reason: 'its name is known only when it runs' };
  if (evaluators.has(name)) return { kind: 'code', reason: `${name} runs a string or file as shell code` };
  if (shells.has(name)) return shellCommand(name, argv);
  if (name === 'busybox') return busybox(argv);
  if (name === 'xargs') return xargs(argv);
  if (name === 'find') return find(argv);
  if (opaqueRunners.test(name))
    return { kind: 'code', reason: `${name} runs a command toolgate does not follow` };
  if (programTakers.test(name)) {
    const fromFile = argv.some((word) => /^(-f|--file)/.test(word));
    if (
      name.endsWith('sed')
        ? !argv.includes('--sandbox')
        : !fromFile || argv.some((word) => /^(-e|--source)/.test(word))
    )
      return {
        kind: 'code',
        reason: `${name} runs a program given on its command line, which can run commands`,
      };
    return none;
  }
  const interpreter = interpreters.find(([names]) => names.test(name));
  if (interpreter) {
    const operands = argv.slice(1);
    if (operands.some((word) => interpreter[1].test(word)) || operands.every((word) => word.startsWith('-')))
      return { kind: 'code', reason: `${name} runs code given on its command line or on stdin` };
  }
  const syntax = wrappers[name];
  return syntax ? wrapped(name, argv, syntax) : none;
}

/** The last path segment: `/bin/rm` and `./rm` name `rm`. */
export function basename(command: string): string {
  const slash = command.lastIndexOf('/');
  return slash < 0 ? command : command.slice(slash + 1);
}

/**
 * `wrapper [options] [--] [NAME=value…] [operands] command…`, the way GNU getopt with `+` reads it:
 * options end at `--` or at the first word that is not one; assignments (env, sudo) and leading
 * operands (timeout's duration) follow; the rest is the command.
 */
function wrapped(name: string, argv: readonly string[], syntax: WrapperSyntax): Unwrapped {
  const later: Unwrapped = { kind: 'code', reason: `${name} gets arguments known only when it runs` };
  let index = 1;
  for (; index < argv.length; ) {
    const word = argv[index]!;
    if (word.startsWith(unsafeTokenPrefix)) return later;
    if (word === '--') {
      index += 1;
      break;
    }
    if (word === '-' && syntax.flags.includes('-')) {
      index += 1;
      continue;
    }
    if (!word.startsWith('-') || word === '-') break;
    const [option, attached] = splitOption(word);
    if (syntax.shell?.includes(option))
      return { kind: 'code', reason: `${name} ${option} runs a shell or a string it splits itself` };
    if (syntax.inert?.includes(option)) return none;
    if (syntax.numeric && /^-[0-9]+$/.test(word)) index += 1;
    else if (syntax.valued.includes(option)) index += attached ? 1 : 2;
    else if (syntax.flags.includes(option)) index += 1;
    else return { kind: 'code', reason: `${name} ${word} is an option toolgate does not know` };
  }
  while (syntax.assignments && index < argv.length && /^[^=]+=/.test(argv[index]!)) {
    if (argv[index]!.startsWith(unsafeTokenPrefix)) return later;
    index += 1;
  }
  for (let operands = syntax.operandsBefore ?? 0; operands > 0 && index < argv.length; operands -= 1) {
    if (argv[index]!.startsWith(unsafeTokenPrefix)) return later;
    index += 1;
  }
  if (argv[index]?.startsWith(unsafeTokenPrefix)) return later;
  const inner = argv.slice(index);
  return inner.length === 0 ? none : { kind: 'runs', commands: [inner] };
}

/** `-n5` → `-n` with a value attached; `--signal=KILL` → `--signal` with one; `-x` → `-x`. */
function splitOption(word: string): [string, boolean] {
  if (word.startsWith('--')) {
    const equals = word.indexOf('=');
    return equals < 0 ? [word, false] : [word.slice(0, equals), true];
  }
  return word.length > 2 ? [word.slice(0, 2), true] : [word, false];
}
