import type { StdioOptions } from 'node:child_process';
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

const closeOnExec = 0o2000000;

let devNull: number | undefined;

/** Holds the start of one `fdinfo` file: `pos:\t<up to 20 digits>\nflags:\t<octal>\n` fits well within it. */
const head = Buffer.alloc(96);

/**
 * Whether this process's descriptor `entry` is close-on-exec, from `/proc/self/fdinfo`: one open, one
 * read of its first line or two, one close (a whole `readFileSync` costs twice that, per descriptor
 * and per command). True where it closed while we looked (the directory's own descriptor among
 * them): it cannot reach a child then.
 */
function closedOnExec(entry: string): boolean {
  let info: number;
  try {
    info = openSync(`/proc/self/fdinfo/${entry}`, 'r');
  } catch {
    return true;
  }
  try {
    const flags = /flags:\s*([0-7]+)\n/.exec(
      head.toString('latin1', 0, readSync(info, head, 0, head.length, 0)),
    );
    // unreadable flags: taken as inheritable, so the child gets /dev/null there
    return flags?.[1] !== undefined && (Number.parseInt(flags[1], 8) & closeOnExec) !== 0;
  } catch {
    return true; // closed while we looked
  } finally {
    closeSync(info);
  }
}

/**
 * The descriptors above stderr this process holds without close-on-exec (Linux `/proc/self/fd`):
 * those a parent passed it, which every child would otherwise inherit. Node opens its own with
 * close-on-exec, so this is usually empty. Empty where there is no `/proc`.
 */
export function inheritableDescriptors(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    const descriptor = Number(entry);
    if (descriptor > 2 && !closedOnExec(entry)) found.push(descriptor);
  }
  return found.sort((left, right) => left - right);
}

/**
 * The `stdio` of a command's child: stdin from nothing, stdout and stderr piped, and every
 * descriptor this process would leak to it ({@link inheritableDescriptors}) replaced by `/dev/null`
 * in the child (Node cannot close them there; `dup2` of `/dev/null` onto each is what it can do),
 * so only stdin, stdout and stderr reach the command.
 */
export function commandStdio(): StdioOptions {
  const stdio: Array<'ignore' | 'pipe' | number> = ['ignore', 'pipe', 'pipe'];
  const leaked = inheritableDescriptors();
  if (leaked.length === 0) return stdio;
  devNull ??= openSync('/dev/null', 'r');
  for (const descriptor of leaked) {
    while (stdio.length < descriptor) stdio.push('ignore');
    stdio[descriptor] = devNull;
  }
  return stdio;
}
