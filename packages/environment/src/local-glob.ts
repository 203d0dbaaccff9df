import picomatch from 'picomatch';
import { glob } from 'tinyglobby';
import type { GlobResult } from './environment.js';
import { resolveLocalPath } from './local-resolve.js';
import { assertGlobPattern, comparePaths, globMatchOptions, outsideRoot } from './path-rules.js';

/**
 * Files under `root` matching `pattern`, found with tinyglobby. Symlinked directories are not
 * followed (so neither loops nor links leading out are walked), and a result that would lie outside
 * the root is dropped even if a pattern slipped past the check. The pattern's static base is where
 * the walk starts, and a walk's start is read through symlinks, so it must resolve inside the root.
 */
export async function globLocal(root: string, pattern: string): Promise<GlobResult> {
  const checked = assertGlobPattern(pattern);
  const base = picomatch.scan(checked).base;
  if (base !== '') {
    const resolved = await resolveLocalPath(root, base);
    if (!resolved.inside) throw outsideRoot(pattern, resolved.absolute, root);
  }
  const found = await glob(checked, {
    cwd: root,
    ...globMatchOptions,
    followSymbolicLinks: false,
    expandDirectories: false,
    onlyFiles: true,
    absolute: false,
  });
  const paths = found.filter((path) => !path.startsWith('../') && !path.startsWith('/') && path !== '..');
  paths.sort(comparePaths);
  return { paths };
}
