import { isAbsolute, sep } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import picomatch from 'picomatch';

/** Refuses a path that is not a string or holds a NUL byte. Nothing is URL-decoded. */
export function assertPathText(path: unknown, what = 'path'): asserts path is string {
  if (typeof path !== 'string') {
    throw new ToolgateError('INVALID_PATH', `the ${what} must be a string, not ${typeof path}`);
  }
  if (path.includes('\0')) {
    throw new ToolgateError(
      'INVALID_PATH',
      `the ${what} ${JSON.stringify(path)} contains a NUL byte; remove it and try again`,
    );
  }
}

/** True when `candidate` is `root` or lies under it, judged on whole path segments. */
export function isInside(root: string, candidate: string, separator: string = sep): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(separator) ? root : root + separator;
  return candidate.startsWith(prefix);
}

/** The workspace-relative POSIX form of an absolute path inside `root` (`.` for the root itself). */
export function relativePosix(root: string, absolute: string, separator: string = sep): string {
  if (absolute === root) return '.';
  const prefix = root.endsWith(separator) ? root : root + separator;
  const relative = absolute.slice(prefix.length);
  return separator === '/' ? relative : relative.split(separator).join('/');
}

/** The error every operation raises for a path that resolves outside the root. */
export function outsideRoot(path: string, resolved: string, root: string): ToolgateError {
  return new ToolgateError(
    'PATH_OUTSIDE_ROOT',
    `the path ${JSON.stringify(path)} resolves to ${JSON.stringify(resolved)}, outside the workspace ` +
      `root ${JSON.stringify(root)}; use a path inside the workspace`,
  );
}

/**
 * The error for a path whose directories kept being replaced by symbolic links between the check
 * and the open. Nothing was read or written; the symlink was not followed.
 */
export function pathKeptChanging(path: string, cause: Error): ToolgateError {
  return new ToolgateError(
    'PATH_OUTSIDE_ROOT',
    `the path ${JSON.stringify(path)} kept changing while it was being opened (${cause.message}); ` +
      'symbolic links that appear after a path is checked are never followed, so nothing was read ' +
      'or written. Try again once nothing is renaming directories in the workspace',
    { cause },
  );
}

/**
 * Refuses a glob pattern that could reach outside the root: absolute patterns, `..` segments, and
 * NUL bytes. Returns the pattern without a leading `./` and with repeated slashes collapsed.
 */
export function assertGlobPattern(pattern: unknown, what = 'glob pattern'): string {
  assertPathText(pattern, what);
  if (pattern.trim() === '') {
    throw new ToolgateError('INVALID_PATH', `the ${what} is empty; pass a pattern such as "src/**/*.ts"`);
  }
  if (isAbsolute(pattern) || pattern.startsWith('/') || /^[a-zA-Z]:/.test(pattern)) {
    throw new ToolgateError(
      'PATH_OUTSIDE_ROOT',
      `the ${what} ${JSON.stringify(pattern)} is absolute; patterns are relative to the workspace root`,
    );
  }
  if (/(^|[\\/{,(|@!?*+])\.\.($|[\\/{},)|])/.test(pattern)) {
    throw new ToolgateError(
      'PATH_OUTSIDE_ROOT',
      `the ${what} ${JSON.stringify(pattern)} climbs out with ".."; patterns stay inside the workspace root`,
    );
  }
  return pattern.replace(/\/{2,}/g, '/').replace(/^(\.\/)+/, '');
}

/** The options every glob match uses, in both environments: dotfiles only when named, case-sensitive. */
export const globMatchOptions = { dot: false } as const;

/** A matcher for workspace-relative POSIX paths, with the same semantics as the environments' glob. */
export function pathMatcher(pattern: string): (path: string) => boolean {
  return picomatch(pattern, globMatchOptions);
}

/** Orders workspace-relative POSIX paths segment by segment (so `a/b` sorts before `a-c`). */
export function comparePaths(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a === b) continue;
    if (a === 47) return -1;
    if (b === 47) return 1;
    return a - b;
  }
  return left.length - right.length;
}
