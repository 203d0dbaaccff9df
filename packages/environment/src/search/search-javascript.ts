import { readSync } from 'node:fs';
import type { ConfinedRoot } from '../confined/index.js';
import { type ConfinedFile, confinedFiles } from '../confined/index.js';
import type { MatchCollector } from './search-collector.js';
import { type LineMatcher, searchText } from './search-lines.js';

const probeBytes = 64 * 1024;
const sliceMs = 10;
const skipDirectories: ReadonlySet<string> = new Set(['.git']);

/** Where the JavaScript engine searches: a confined root, and which of its files it may read. */
export interface JavaScriptSearchScope {
  readonly root: ConfinedRoot;
  /** Search regular files with more than one hard link too (`allowHardLinkedReads`). */
  readonly allowHardLinks: boolean;
}

/**
 * The JavaScript search engine: walks the root with {@link confinedFiles} (hidden files included,
 * `.git` skipped, symlinks never followed, hard-linked files left out unless allowed, ignore files
 * not read) and searches every regular file whose path `include` accepts, reading it through the
 * descriptor the walk opened, never by its name: a directory swapped for a link leading out while
 * the search runs cannot make it read a file outside the root. It reads with synchronous calls,
 * which are several times faster than promises for many small files, and yields to the event loop
 * every few milliseconds so other work keeps running.
 */
export async function searchWithJavaScript(
  scope: JavaScriptSearchScope,
  matcher: LineMatcher,
  include: (path: string) => boolean,
  collector: MatchCollector,
): Promise<void> {
  const literal = matcher.literal === undefined ? undefined : Buffer.from(matcher.literal, 'utf8');
  const probe = Buffer.allocUnsafe(probeBytes);
  let sliceStart = performance.now();
  const files = confinedFiles(scope.root, {
    skipDirectories,
    include,
    allowHardLinks: scope.allowHardLinks,
  });
  for (const file of files) {
    const bytes = readText(file, probe);
    if (bytes !== undefined) {
      if (literal === undefined) searchText(file.path, bytes.toString('utf8'), matcher, collector);
      else searchAroundLiteral(file.path, bytes, literal, matcher.line, collector);
    }
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** A file's bytes, read through its descriptor, or undefined when it cannot be read or holds a NUL byte (binary). */
function readText(file: ConfinedFile, probe: Buffer): Buffer | undefined {
  try {
    const head = readSync(file.descriptor, probe, 0, probe.length, 0);
    if (probe.subarray(0, head).indexOf(0) !== -1) return undefined;
    if (head < probe.length) return probe.subarray(0, head);
    const size = Math.max(file.size, head);
    const bytes = Buffer.allocUnsafe(size);
    probe.copy(bytes, 0, 0, head);
    let filled = head;
    while (filled < size) {
      const read = readSync(file.descriptor, bytes, filled, size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    const text = bytes.subarray(0, filled);
    return text.indexOf(0, head) === -1 ? text : undefined;
  } catch {
    return undefined;
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
