import { ToolgateError } from '@toolgate/core';
import type { ConfinedRoot } from '../confined/index.js';
import type { SearchOptions, SearchResult } from '../environment.js';
import { jobOptions } from './search-job.js';
import { ripgrepPattern } from './search-pattern.js';
import { prepareSearch, type SearchEngine } from './search-prepare.js';
import { searchWithRipgrep } from './search-ripgrep.js';
import { searchOffThread, searchTimedOut } from './search-thread.js';
import { RipgrepVerifier } from './search-verify.js';
import { maxRipgrepExclusions, ripgrepExclusions, searchAllowance } from './search-withheld.js';

/** One search of a local environment's files, as {@link searchLocal} runs it. */
export interface LocalSearch {
  root: ConfinedRoot;
  allowHardLinks: boolean;
  pattern: string;
  options: SearchOptions | undefined;
  engine: SearchEngine;
  ripgrep: { command: string; env: Record<string, string> };
  /** How long it may run: the caller's time within the environment's `searchTimeoutMs` (`searchTimeoutOf`). */
  timeoutMs: number;
}

/**
 * Searches the files under the confined root, with ripgrep when allowed and able (every line it
 * reports verified against the file opened inside the root), otherwise with the JavaScript engine
 * on a worker thread (reading files only through the confined walk). Either way the search ends by
 * `timeoutMs`: ripgrep is killed, the thread terminated, and the search fails with TIMEOUT.
 * With `options.withhold`, every file the glob selects is first asked about by name (no file
 * opened); the engines then open only the files it let through (ripgrep is told to skip each
 * withheld file, or, past {@link maxRipgrepExclusions} of them under `auto`, the JavaScript engine
 * searches instead), and the result counts the withheld files.
 */
export async function searchLocal(search: LocalSearch): Promise<SearchResult> {
  const { root, allowHardLinks, pattern, options, engine, ripgrep, timeoutMs } = search;
  const prepared = prepareSearch(pattern, options);
  const deadline = performance.now() + timeoutMs;
  const allowance =
    options?.withhold === undefined
      ? undefined
      : await searchAllowance(root, prepared.include, options.withhold);
  const withheld =
    allowance === undefined || allowance.withheld.length === 0 ? {} : { withheld: allowance.withheld.length };
  const include =
    allowance === undefined
      ? prepared.include
      : (path: string) => allowance.allowed.has(path) && prepared.include(path);
  const exclusions = allowance?.withheld ?? [];
  const translated =
    engine === 'javascript' || (engine === 'auto' && exclusions.length > maxRipgrepExclusions)
      ? undefined
      : ripgrepPattern(pattern);
  if (translated !== undefined) {
    const verifier = new RipgrepVerifier(root, allowHardLinks, prepared.collector);
    const outcome = await searchWithRipgrep(
      {
        root: root.absolute,
        command: ripgrep.command,
        pattern: translated,
        glob: prepared.glob,
        exclude: ripgrepExclusions(exclusions),
        env: ripgrep.env,
        timeoutMs,
      },
      include,
      verifier,
    );
    if (outcome === 'done') {
      const result = { ...prepared.collector.result('ripgrep'), ...withheld };
      return verifier.unverified === 0 ? result : { ...result, unverifiedMatches: verifier.unverified };
    }
    if (outcome === 'timed-out') throw searchTimedOut(pattern, timeoutMs, 'ripgrep');
    if (outcome === 'unavailable' && engine === 'ripgrep') {
      throw new ToolgateError(
        'COMMAND_FAILED',
        `ripgrep ("${ripgrep.command}") could not be run; install it or use the JavaScript search engine`,
      );
    }
  }
  const remaining = Math.max(1, Math.ceil(deadline - performance.now()));
  const only = allowance === undefined ? undefined : [...allowance.allowed];
  const result = await searchOffThread(
    { kind: 'directory', root, allowHardLinks, pattern, options: jobOptions(options, only) },
    remaining,
    timeoutMs,
  );
  return { ...result, ...withheld };
}
