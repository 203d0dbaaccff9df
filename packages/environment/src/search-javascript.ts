import { closeSync, type Dirent, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { MatchCollector } from './search-collector.js';
import { type LineMatcher, searchText } from './search-lines.js';

const probeBytes = 64 * 1024;
const sliceMs = 10;

/**
 * The JavaScript search engine: walks `root` (hidden files included, `.git` skipped, symlinks never
 * followed, ignore files not read) and searches every regular file whose path `include` accepts.
 * It reads with synchronous calls, which are several times faster than promises for many small
 * files, and yields to the event loop every few milliseconds so other work keeps running.
 */
export async function searchWithJavaScript(
  root: string,
  matcher: LineMatcher,
  include: (path: string) => boolean,
  collector: MatchCollector,
): Promise<void> {
  const literal = matcher.literal === undefined ? undefined : Buffer.from(matcher.literal, 'utf8');
  const probe = Buffer.allocUnsafe(probeBytes);
  const directories = [''];
  let sliceStart = performance.now();
  while (directories.length > 0) {
    const relative = directories.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(relative === '' ? root : join(root, relative), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) directories.push(path);
      else if (entry.isFile() && include(path)) {
        const bytes = readText(join(root, path), probe);
        if (bytes === undefined) continue;
        if (literal === undefined) searchText(path, bytes.toString('utf8'), matcher, collector);
        else searchAroundLiteral(path, bytes, literal, matcher.line, collector);
      }
    }
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** A file's bytes, or undefined when it cannot be read or holds a NUL byte (binary). */
function readText(path: string, probe: Buffer): Buffer | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = readSync(descriptor, probe, 0, probe.length, 0);
    if (probe.subarray(0, head).indexOf(0) !== -1) return undefined;
    if (head < probe.length) return probe.subarray(0, head);
    const size = Math.max(fstatSync(descriptor).size, head);
    const bytes = Buffer.allocUnsafe(size);
    probe.copy(bytes, 0, 0, head);
    let filled = head;
    while (filled < size) {
      const read = readSync(descriptor, bytes, filled, size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    const text = bytes.subarray(0, filled);
    return text.indexOf(0, head) === -1 ? text : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/** Tests only the lines holding `literal`, which every matching line must contain. */
function searchAroundLiteral(
  path: string,
  bytes: Buffer,
  literal: Buffer,
  regex: RegExp,
  collector: MatchCollector,
): void {
  let line = 1;
  let counted = 0;
  let position = bytes.indexOf(literal);
  while (position !== -1) {
    const lineStart = position === 0 ? 0 : bytes.lastIndexOf(10, position - 1) + 1;
    let lineEnd = bytes.indexOf(10, position);
    if (lineEnd === -1) lineEnd = bytes.length;
    for (
      let index = bytes.indexOf(10, counted);
      index !== -1 && index < lineStart;
      index = bytes.indexOf(10, index + 1)
    ) {
      line++;
    }
    counted = lineStart;
    const text = bytes.toString('utf8', lineStart, lineEnd);
    if (regex.test(text)) collector.add(path, line, text);
    position = lineEnd >= bytes.length ? -1 : bytes.indexOf(literal, lineEnd + 1);
  }
}
