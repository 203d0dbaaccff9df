import { ToolgateError } from '@toolgate/core';
import type { SearchOptions, SearchResult } from './environment.js';
import { jobOptions } from './search-job.js';
import { ripgrepPattern } from './search-pattern.js';
import { prepareSearch, type SearchEngine } from './search-prepare.js';
import { searchWithRipgrep } from './search-ripgrep.js';
import { searchOffThread, searchTimedOut } from './search-thread.js';

/**
 * Searches the files under `root`, with ripgrep when allowed and able, otherwise with the
 * JavaScript engine on a worker thread. Either way the search ends by `timeoutMs`: ripgrep is
 * killed, the thread terminated, and the search fails with TIMEOUT.
 */
export async function searchLocal(
  root: string,
  pattern: string,
  options: SearchOptions | undefined,
  engine: SearchEngine,
  ripgrep: { command: string; env: Record<string, string> },
  timeoutMs: number,
): Promise<SearchResult> {
  const prepared = prepareSearch(pattern, options);
  const deadline = performance.now() + timeoutMs;
  const translated = engine === 'javascript' ? undefined : ripgrepPattern(pattern);
  if (translated !== undefined) {
    const outcome = await searchWithRipgrep(
      {
        root,
        command: ripgrep.command,
        pattern: translated,
        glob: prepared.glob,
        env: ripgrep.env,
        timeoutMs,
      },
      prepared.include,
      prepared.collector,
    );
    if (outcome === 'done') return prepared.collector.result('ripgrep');
    if (outcome === 'timed-out') throw searchTimedOut(pattern, timeoutMs, 'ripgrep');
    if (outcome === 'unavailable' && engine === 'ripgrep') {
      throw new ToolgateError(
        'COMMAND_FAILED',
        `ripgrep ("${ripgrep.command}") could not be run; install it or use the JavaScript search engine`,
      );
    }
  }
  const remaining = Math.max(1, Math.ceil(deadline - performance.now()));
  try {
    return await searchOffThread(
      { kind: 'directory', root, pattern, options: jobOptions(options) },
      remaining,
    );
  } catch (error) {
    if (ToolgateError.is(error) && error.code === 'TIMEOUT')
      throw searchTimedOut(pattern, timeoutMs, 'JavaScript');
    throw error;
  }
}
