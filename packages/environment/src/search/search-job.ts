import type { ConfinedRoot } from '../confined/index.js';
import type { SearchOptions, SearchResult } from '../environment.js';
import { searchWithJavaScript } from './search-javascript.js';
import { lineMatcher, searchText } from './search-lines.js';
import { prepareSearch } from './search-prepare.js';

/**
 * The part of {@link SearchOptions} a search thread needs: plain data that crosses a thread. `only`,
 * when set, lists the files the thread may open (what `withhold` left); any other is not opened.
 */
export type SearchJobOptions = Pick<SearchOptions, 'glob' | 'maxMatches' | 'maxLineChars'> & {
  only?: string[];
};

/**
 * One JavaScript-engine search, as handed to a search thread: a confined directory tree to walk (the
 * root as plain data; the thread opens its own descriptors, which Node closes if the thread is
 * terminated), or texts already in memory (a MemoryEnvironment's files).
 */
export type SearchJob =
  | {
      kind: 'directory';
      root: ConfinedRoot;
      allowHardLinks: boolean;
      pattern: string;
      options: SearchJobOptions;
    }
  | { kind: 'texts'; files: [path: string, content: string][]; pattern: string; options: SearchJobOptions };

/** Runs a search job with the JavaScript engine, on whichever thread calls it. */
export async function runSearchJob(job: SearchJob): Promise<SearchResult> {
  const prepared = prepareSearch(job.pattern, job.options);
  const matcher = lineMatcher(prepared.regex);
  const only = job.options.only === undefined ? undefined : new Set(job.options.only);
  const include =
    only === undefined ? prepared.include : (path: string) => only.has(path) && prepared.include(path);
  if (job.kind === 'directory') {
    const scope = { root: job.root, allowHardLinks: job.allowHardLinks };
    await searchWithJavaScript(scope, matcher, include, prepared.collector);
  } else {
    for (const [path, content] of job.files) {
      if (include(path)) searchText(path, content, matcher, prepared.collector);
    }
  }
  return prepared.collector.result('javascript');
}

/** Copies only the options a search thread reads, so nothing that cannot cross a thread is sent. */
export function jobOptions(options: SearchOptions = {}, only?: string[]): SearchJobOptions {
  return {
    ...(only === undefined ? {} : { only }),
    ...(options.glob === undefined ? {} : { glob: options.glob }),
    ...(options.maxMatches === undefined ? {} : { maxMatches: options.maxMatches }),
    ...(options.maxLineChars === undefined ? {} : { maxLineChars: options.maxLineChars }),
  };
}
