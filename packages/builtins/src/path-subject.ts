import type { PolicySubject } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import picomatch from 'picomatch';

/** The policy subject of a file tool: the path as the environment resolves it. */
export async function pathSubject(environment: Environment, path: string): Promise<PolicySubject> {
  return { paths: [(await environment.resolvePath(path)).path] };
}

/**
 * The policy subject of a pattern tool: the directory the glob cannot climb above (its static
 * base, `.` when it has none), as the environment resolves it. A rule on `src/**` then allows a
 * glob under `src/` but not one over the whole workspace.
 */
export async function patternSubject(
  environment: Environment,
  pattern: string | undefined,
): Promise<PolicySubject> {
  const base = pattern === undefined ? '' : picomatch.scan(pattern).base;
  return pathSubject(environment, base === '' ? '.' : base);
}

/**
 * Each of `paths` (files a glob found, which are never links themselves) at its resolved path: its
 * directory resolved once through the environment (a link in the directory part is followed), and
 * its name appended. What policy judges of a listed file is then where it lies.
 */
export async function resolvedPaths(environment: Environment, paths: readonly string[]): Promise<string[]> {
  const directories = new Map<string, Promise<string>>();
  return Promise.all(
    paths.map(async (path) => {
      const slash = path.lastIndexOf('/');
      if (slash === -1) return path;
      const directory = path.slice(0, slash);
      let resolved = directories.get(directory);
      if (resolved === undefined) {
        resolved = environment.resolvePath(directory).then((found) => found.path);
        directories.set(directory, resolved);
      }
      const base = await resolved;
      return base === '.' ? path.slice(slash + 1) : `${base}/${path.slice(slash + 1)}`;
    }),
  );
}
