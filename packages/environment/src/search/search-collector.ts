import { capText } from '@toolgate/core/internal';
import type { SearchMatch, SearchResult } from '../environment.js';
import { comparePaths } from '../paths/index.js';

/**
 * Gathers matches arriving in any order and keeps the first `maxMatches` by path then line, in
 * bounded memory, while counting every match. Both search engines report through one.
 */
export class MatchCollector {
  #matches: SearchMatch[] = [];
  total = 0;

  constructor(
    readonly maxMatches: number,
    readonly maxLineChars: number,
  ) {}

  add(path: string, lineNumber: number, text: string): void {
    this.total++;
    if (this.maxMatches === 0) return;
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    const capped = line.length > this.maxLineChars ? capText(line, this.maxLineChars).text : line;
    this.#matches.push({ path, line: lineNumber, text: capped });
    if (this.#matches.length >= this.maxMatches * 2) this.#trim();
  }

  result(engine: SearchResult['engine']): SearchResult {
    this.#trim();
    return { matches: this.#matches, totalMatches: this.total, engine };
  }

  #trim(): void {
    this.#matches.sort(compareMatches);
    if (this.#matches.length > this.maxMatches) this.#matches.length = this.maxMatches;
  }
}

function compareMatches(left: SearchMatch, right: SearchMatch): number {
  return left.path === right.path ? left.line - right.line : comparePaths(left.path, right.path);
}
