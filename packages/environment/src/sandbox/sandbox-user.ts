import { existsSync, statSync } from 'node:fs';
import { ToolgateError } from '@toolgate/core';

/** A host user and group, by number. */
export interface SandboxUser {
  uid: number;
  gid: number;
}

/** `nobody` and `nogroup` on Debian, Ubuntu and Fedora: the user a root process falls back to. */
export const nobody: SandboxUser = Object.freeze({ uid: 65534, gid: 65534 });

/**
 * The host user a sandboxed command runs as when this process is root, so that no check for global
 * root (uid 0) passes inside: the `sandboxUser` option; else the owner of the workspace root, when
 * that is not root (files the command creates are then owned as the workspace's are); else
 * {@link nobody}. Undefined when this process is not root: bubblewrap's user namespace then runs the
 * command as this process's own unprivileged user.
 */
export function sandboxUserFor(root: string, option: SandboxUser | undefined): SandboxUser | undefined {
  const uid = process.getuid?.();
  if (uid !== 0) {
    if (option !== undefined && option.uid !== uid) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `sandboxUser ${option.uid}:${option.gid} needs a root process to switch to; this process runs as uid ${uid}, ` +
          'and its sandboxed commands run as that user: drop sandboxUser',
      );
    }
    return undefined;
  }
  if (option !== undefined) {
    if (!Number.isInteger(option.uid) || !Number.isInteger(option.gid) || option.uid <= 0 || option.gid < 0) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `sandboxUser ${JSON.stringify(option)} is not an unprivileged user: give a positive uid and a gid (root, uid 0, is never used inside the sandbox)`,
      );
    }
    return { uid: option.uid, gid: option.gid };
  }
  const owner = statSync(root);
  return owner.uid !== 0 ? { uid: owner.uid, gid: owner.gid } : nobody;
}

/** Where `setpriv` (util-linux) is, which drops a root sandbox to {@link sandboxUserFor}'s user. */
export function setprivPath(): string {
  for (const path of ['/usr/bin/setpriv', '/bin/setpriv', '/usr/sbin/setpriv'])
    if (existsSync(path)) return path;
  throw new ToolgateError(
    'COMMAND_FAILED',
    'this process is root, and SandboxEnvironment runs commands as an unprivileged user with setpriv, which ' +
      'is not installed: install util-linux (apt-get install util-linux), or run toolgate as an unprivileged user',
  );
}

/**
 * The commands a root sandbox puts before the shell: become `user`, with no supplementary groups,
 * no capabilities left in any set (inheritable, bounding, ambient), then enter the workspace as
 * that user (`env --chdir`, coreutils).
 */
export function dropArguments(setpriv: string, user: SandboxUser, root: string): string[] {
  return [
    setpriv,
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--',
    '/usr/bin/env',
    `--chdir=${root}`,
    '--',
  ];
}
