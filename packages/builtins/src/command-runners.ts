import { unsafeTokenPrefix } from './shell-words.js';
import { laterArguments, none, type Unwrapped } from './unwrapped.js';

/**
 * `sh [options] -c [options] [--] line [name [arguments]]`: the line, whatever options surround
 * `-c` (the first operand is the line). Without `-c`, the first operand is a script file (a program
 * like `./script.sh`); with no operand, `-s` or `-i` the shell reads commands toolgate cannot see,
 * and `-O` (bash's shopt) may change how the line is read.
 */
export function shellCommand(name: string, argv: readonly string[]): Unwrapped {
  const unreadable: Unwrapped = {
    kind: 'code',
    reason: `${name} reads commands toolgate cannot see (stdin, an option it does not know)`,
  };
  let command = false;
  let index = 1;
  for (; index < argv.length; index += 1) {
    const word = argv[index]!;
    if (word.startsWith(unsafeTokenPrefix)) return unreadable;
    if (word === '--' || word === '-') {
      index += 1;
      break;
    }
    if (!/^[-+][a-zA-Z]+$/.test(word)) {
      if (word.startsWith('-') || word.startsWith('+')) return unreadable;
      break;
    }
    if (/[isO]/.test(word)) return unreadable;
    if (word.startsWith('-') && word.includes('c')) command = true;
    if (word.includes('o')) index += 1;
  }
  const operand = argv[index];
  if (!command) return operand === undefined ? unreadable : none;
  if (operand === undefined || operand.startsWith(unsafeTokenPrefix)) return unreadable;
  return { kind: 'line', line: operand, shell: name };
}

/** `busybox applet arguments…`: the applet, as the command it is. */
export function busybox(argv: readonly string[]): Unwrapped {
  const applet = argv[1];
  if (applet === undefined) return none;
  if (applet.startsWith('-') || applet.startsWith(unsafeTokenPrefix))
    return { kind: 'code', reason: 'busybox gets an option toolgate does not know' };
  return { kind: 'runs', commands: [argv.slice(1)] };
}

/** `xargs [options] [command [arguments]]`: the command, with arguments read from stdin. */
export function xargs(argv: readonly string[]): Unwrapped {
  const valued =
    /^(-[adEeIiLlnPs]|--(arg-file|delimiter|eof|replace|max-lines|max-args|max-procs|max-chars|process-slot-var))$/;
  let index = 1;
  while (index < argv.length) {
    const word = argv[index]!;
    if (word.startsWith(unsafeTokenPrefix))
      return { kind: 'code', reason: 'xargs gets arguments known only when it runs' };
    if (word === '--') {
      index += 1;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    if (
      /^-[0rtpx]+$/.test(word) ||
      /^--(null|no-run-if-empty|verbose|interactive|exit|open-tty|show-limits)$/.test(word)
    )
      index += 1;
    else if (/^-[eil]$/.test(word))
      index += 1; // optional value, attached only
    else if (valued.test(word)) index += 2;
    else if (/^-[adEIiLlnPs]./.test(word) || /^--[a-z-]+=/.test(word)) index += 1;
    else return { kind: 'code', reason: `xargs ${word} is an option toolgate does not know` };
  }
  const inner = argv.slice(index);
  return { kind: 'runs', commands: [[...(inner.length === 0 ? ['echo'] : inner), laterArguments]] };
}

/** `find … -exec command {} ;` and friends: each command it runs; `-delete` as `rm`. */
export function find(argv: readonly string[]): Unwrapped {
  const runs: string[][] = [];
  for (let index = 1; index < argv.length; index += 1) {
    const word = argv[index]!;
    if (word === '-delete') runs.push(['rm', laterArguments]);
    if (word === '-fprint' || word === '-fprint0' || word === '-fprintf' || word === '-fls')
      return { kind: 'code', reason: `find ${word} writes to a file toolgate does not judge` };
    if (word === '-exec' || word === '-execdir' || word === '-ok' || word === '-okdir') {
      const end = argv.findIndex((item, at) => at > index && (item === ';' || item === '+'));
      const command = argv.slice(index + 1, end < 0 ? argv.length : end);
      if (command.length === 0) continue;
      runs.push(command.map((item) => (item.includes('{}') ? laterArguments : item)));
      index = end < 0 ? argv.length : end;
    }
  }
  return runs.length === 0 ? none : { kind: 'runs', commands: runs };
}
