import type { MatchCollector } from './search-collector.js';
import { requiredLiteral } from './search-literal.js';

/** A compiled search: the per-line expression, and a whole-text pre-check that never misses a line. */
export interface LineMatcher {
  line: RegExp;
  /** Matches somewhere at or before every line that `line` matches; absent when that cannot be promised. */
  prefilter: RegExp | undefined;
  /** Text every matching line contains, for skipping whole files cheaply. */
  literal: string | undefined;
}

/** Builds the matcher for a compiled search pattern. */
export function lineMatcher(regex: RegExp): LineMatcher {
  // Lookbehind sees across line starts in whole text, so only patterns without it get a pre-check.
  const prefilter = regex.source.includes('(?<') ? undefined : new RegExp(regex.source, 'msu');
  return { line: regex, prefilter, literal: requiredLiteral(regex.source) };
}

/** Searches one text line by line, reporting each matching line once. */
export function searchText(
  path: string,
  text: string,
  matcher: LineMatcher,
  collector: MatchCollector,
): void {
  if (text.includes('\0')) return;
  let start = 0;
  let line = 1;
  if (matcher.prefilter) {
    const first = text.search(matcher.prefilter);
    if (first === -1) return;
    const lineStart = text.lastIndexOf('\n', first - 1) + 1;
    for (
      let index = text.indexOf('\n');
      index !== -1 && index < lineStart;
      index = text.indexOf('\n', index + 1)
    ) {
      line++;
    }
    start = lineStart;
  }
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const content = text.slice(start, end);
    if (matcher.line.test(content)) collector.add(path, line, content);
    start = end + 1;
    line++;
  }
}
