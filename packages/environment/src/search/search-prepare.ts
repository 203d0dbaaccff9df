import type { SearchOptions } from '../environment.js';
import { assertGlobPattern, pathMatcher } from '../paths/index.js';
import { MatchCollector } from './search-collector.js';
import { compileSearchPattern } from './search-pattern.js';

/** Which engine searches file contents: ripgrep when it can, always JavaScript, or ripgrep only. */
export type SearchEngine = 'auto' | 'ripgrep' | 'javascript';

/** Defaults for {@link SearchOptions} and for a search's deadline. */
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
