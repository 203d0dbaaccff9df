import { lstatSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { ToolgateError } from '@toolgate/core';

/** The bubblewrap arguments that hold the protected paths read-only, and the mount points they make. */
export interface ProtectedMounts {
  /** `--ro-bind` arguments, to follow the workspace's own bind. */
  args: string[];
  /**
   * Absolute paths that did not exist, covered by an empty read-only tmpfs so a command cannot
   * create them; bubblewrap makes each an empty directory on the host while the command runs.
   */
  placeholders: string[];
}

function linkRefused(path: string): ToolgateError {
  return new ToolgateError(
    'COMMAND_FAILED',
    `the protected path ${JSON.stringify(path)} is a symbolic link, which the sandbox cannot hold read-only ` +
      '(a command could replace the link); remove the link, or opt the path out of protectedPaths',
  );
}

/**
 * Read-only binds over each protected path (workspace-relative) that exists, and an empty read-only
 * placeholder over the first missing part of each one that does not, so nothing can be created
 * there. A protected path that is, or lies under, a symbolic link is refused (COMMAND_FAILED):
 * bubblewrap would follow it.
 */
export function protectedMounts(root: string, list: readonly string[]): ProtectedMounts {
  const binds = new Set<string>();
  const placeholders = new Set<string>();
  for (const entry of list) {
    let path = root;
    for (const part of entry.split('/')) {
      path = join(path, part);
      let stats: ReturnType<typeof lstatSync>;
      try {
        stats = lstatSync(path);
      } catch {
        placeholders.add(path);
        break;
      }
      if (stats.isSymbolicLink()) throw linkRefused(path.slice(root.length + 1));
      if (path === join(root, entry)) binds.add(path);
      else if (!stats.isDirectory()) break;
    }
  }
  const args: string[] = [];
  for (const path of [...binds].sort()) args.push('--ro-bind', path, path);
  // An empty tmpfs of the sandbox's own, made read-only: nothing on the host to create or remove.
  for (const path of [...placeholders].sort()) {
    args.push('--perms', '0555', '--size', '4096', '--tmpfs', path, '--remount-ro', path);
  }
  return { args, placeholders: [...placeholders] };
}

/** Removes placeholders bubblewrap left as empty directories; anything else there is left alone. */
export function removePlaceholders(placeholders: readonly string[]): void {
  for (const path of placeholders) {
    try {
      rmdirSync(path);
    } catch {
      // not empty, not a directory, or already gone: not ours to remove
    }
  }
}
