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
