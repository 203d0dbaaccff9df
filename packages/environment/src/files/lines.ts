import { ToolgateError } from '@toolgate/core';
import type { FileContent, ReadFileOptions } from '../environment.js';

/** Picks the requested lines of a text, the same way in every environment. */
export function selectLines(path: string, text: string, options: ReadFileOptions = {}): FileContent {
  const offset = options.offset ?? 1;
  const limit = options.limit;
  if (!Number.isInteger(offset) || offset < 1) {
    throw new ToolgateError('INVALID_PATH', `offset must be a whole number from 1, not ${offset}`);
  }
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw new ToolgateError('INVALID_PATH', `limit must be a whole number from 0, not ${limit}`);
  }
  const lines = text === '' ? [] : text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const start = offset - 1;
  const end = limit === undefined ? lines.length : Math.min(lines.length, start + limit);
  const selected = start < end ? lines.slice(start, end) : [];
  return {
    path,
    content: selected.join('\n'),
    startLine: offset,
    endLine: offset + selected.length - 1,
    totalLines: lines.length,
  };
}
