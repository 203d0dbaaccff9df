import type { Stats } from 'node:fs';
import { ToolgateError } from '@toolgate/core';

/**
 * Refuses a regular file with more than one hard link. Its other names may lie outside the
 * workspace root, where no path check can see them: writing would change a file outside, and
 * reading would disclose one.
 */
export function refuseHardLinks(stats: Stats, path: string, action: 'read' | 'write'): void {
  if (!stats.isFile() || stats.nlink <= 1) return;
  const remedy =
    action === 'read'
      ? 'copy the file (cp, not ln) if it should be readable, or create the environment with allowHardLinkedReads: true'
      : 'replace it with a copy (cp, not ln) or write to a new file';
  throw new ToolgateError(
    'PATH_OUTSIDE_ROOT',
    `cannot ${action} ${JSON.stringify(path)}: it has ${stats.nlink} hard links, and another of its names ` +
      `may lie outside the workspace root, where ${action === 'read' ? 'its content would be disclosed from' : 'the change would land'}; ${remedy}`,
  );
}
