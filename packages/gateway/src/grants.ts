import picomatch from 'picomatch';

/**
 * A test of tool names against a client's grant: glob patterns of the gateway's tool names
 * (`fs__read_*`, `search__*`, an exact `fs__list_directory`). `*` never crosses a `/`; tool names hold none.
 */
export function grantMatcher(patterns: readonly string[]): (tool: string) => boolean {
  const tests = patterns.map((pattern) => picomatch(pattern, { nobrace: true, noextglob: true }));
  return (tool) => tests.some((test) => test(tool));
}
