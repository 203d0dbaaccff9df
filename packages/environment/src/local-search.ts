import { ToolgateError } from '@toolgate/core';
import type { SearchOptions, SearchResult } from './environment.js';
import { assertGlobPattern, pathMatcher } from './path-rules.js';
import { MatchCollector } from './search-collector.js';
import { searchWithJavaScript } from './search-javascript.js';
import { lineMatcher } from './search-lines.js';
import { compileSearchPattern, ripgrepPattern } from './search-pattern.js';
import { searchWithRipgrep } from './search-ripgrep.js';

/** Which engine searches file contents: ripgrep when it can, always JavaScript, or ripgrep only. */
export type SearchEngine = 'auto' | 'ripgrep' | 'javascript';

/** Defaults for {@link SearchOptions}. */
export const searchDefaults = { maxMatches: 1000, maxLineChars: 1000 } as const;

/** Reads and checks the options every environment's search takes. */
export function prepareSearch(pattern: string, options: SearchOptions = {}) {
  const regex = compileSearchPattern(pattern);
  const glob = options.glob === undefined ? undefined : assertGlobPattern(options.glob, 'search glob');
  const include = glob === undefined ? () => true : pathMatcher(glob);
  const maxMatches = options.maxMatches ?? searchDefaults.maxMatches;
  const maxLineChars = options.maxLineChars ?? searchDefaults.maxLineChars;
  return { regex, glob, include, collector: new MatchCollector(maxMatches, maxLineChars) };
}

/** Searches the files under `root`, with ripgrep when allowed and able, otherwise in JavaScript. */
export async function searchLocal(
  root: string,
  pattern: string,
  options: SearchOptions | undefined,
  engine: SearchEngine,
  ripgrep: { command: string; env: Record<string, string> },
): Promise<SearchResult> {
  const prepared = prepareSearch(pattern, options);
  const translated = engine === 'javascript' ? undefined : ripgrepPattern(pattern);
  if (translated !== undefined) {
    const outcome = await searchWithRipgrep(
      { root, command: ripgrep.command, pattern: translated, glob: prepared.glob, env: ripgrep.env },
      prepared.include,
      prepared.collector,
    );
    if (outcome === 'done') return prepared.collector.result('ripgrep');
    if (outcome === 'unavailable' && engine === 'ripgrep') {
      throw new ToolgateError(
        'COMMAND_FAILED',
        `ripgrep ("${ripgrep.command}") could not be run; install it or use the JavaScript search engine`,
      );
    }
  }
  const fresh = prepareSearch(pattern, options);
  await searchWithJavaScript(root, lineMatcher(fresh.regex), fresh.include, fresh.collector);
  return fresh.collector.result('javascript');
}
