import type { SearchOptions } from '../environment.js';
import { assertGlobPattern, pathMatcher } from '../paths/index.js';
import { MatchCollector } from './search-collector.js';
import { compileSearchPattern } from './search-pattern.js';

/** Which engine searches file contents: ripgrep when it can, always JavaScript, or ripgrep only. */
export type SearchEngine = 'auto' | 'ripgrep' | 'javascript';

/** Defaults for {@link SearchOptions}, and a search's deadline when neither its caller nor the environment sets one. */
export const searchDefaults = { maxMatches: 1000, maxLineChars: 1000, timeoutMs: 30_000 } as const;

/** Reads and checks the options every environment's search takes. Compiling runs no regex, so it is safe here. */
export function prepareSearch(pattern: string, options: SearchOptions = {}) {
  const regex = compileSearchPattern(pattern);
  const glob = options.glob === undefined ? undefined : assertGlobPattern(options.glob, 'search glob');
  const include = glob === undefined ? () => true : pathMatcher(glob);
  const maxMatches = options.maxMatches ?? searchDefaults.maxMatches;
  const maxLineChars = options.maxLineChars ?? searchDefaults.maxLineChars;
  return { regex, glob, include, collector: new MatchCollector(maxMatches, maxLineChars) };
}

/**
 * How long one search may run: what its caller asked (`SearchOptions.timeoutMs`, the time left to
 * its call's deadline), within the environment's configured `searchTimeoutMs`; the default only
 * when neither says. A caller with no time left gets 1 ms (the search fails with TIMEOUT).
 */
export function searchTimeoutOf(configured: number | undefined, asked: number | undefined): number {
  const given = asked === undefined || Number.isNaN(asked) ? undefined : Math.max(1, Math.ceil(asked));
  if (given === undefined) return configured ?? searchDefaults.timeoutMs;
  return configured === undefined ? given : Math.min(configured, given);
}
