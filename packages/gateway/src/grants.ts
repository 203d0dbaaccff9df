import { patternGrant } from '@toolgate/core';

/**
 * A test of tool names against a client's grant: glob patterns of the gateway's tool names
 * (`fs__read_*`, `search__*`, an exact `fs__list_directory`). `*` never crosses a `/`; tool names
 * hold none. The gateway's calls use core's {@link patternGrant} itself; this is its test alone.
 */
export function grantMatcher(patterns: readonly string[]): (tool: string) => boolean {
  const grant = patternGrant('', patterns);
  return (tool) => grant.allows(tool);
}
