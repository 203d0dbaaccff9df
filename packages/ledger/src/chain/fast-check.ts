import { sha256Hex } from './canonical.js';
import type { ChainHead } from './chain.js';
import { eventKindPattern, ledgerSchemaVersion } from './event.js';

/**
 * The chain check of a stored line without parsing it: true only when the line is certainly good —
 * the canonical JSON of a valid envelope at `head.seq`, pointing at `head.hash`, hashing to its own
 * hash. False means "cannot decide here", never "bad": the caller then runs the full check, which
 * decides and names the fault.
 *
 * It accepts a strict subset of canonical JSON and nothing else, so it can only say yes where the
 * full check (parse, envelope, `line === canonical(parse(line))`, hash) says yes: no whitespace; the
 * envelope's keys exactly, once each, in canonical order; object keys strictly ascending (no
 * duplicates) and free of escapes; strings with only the escapes JSON.stringify writes (`\"` `\\`
 * `\b` `\f` `\n` `\r` `\t`; any `\u` escape, a raw control character or a lone surrogate → undecided);
 * numbers only in their ECMAScript form (`String(Number(text)) === text`). The hash is over the line
 * as it stands without its hash member, so the bytes are the bytes that were hashed.
 *
 * @returns the hash of the line when it is certainly good, undefined otherwise.
 */
export function fastCheckLine(line: string, head: ChainHead): string | undefined {
  try {
    return check(line, head);
  } catch (error) {
    if (error instanceof RangeError) return undefined; // too deep or too long for the stack: undecided
    throw error;
  }
}

function check(line: string, head: ChainHead): string | undefined {
  if (!line.startsWith('{"actor":')) return undefined;
  let at = nonEmptyString(line, 9);
  if (at < 0 || !line.startsWith(',"at":', at)) return undefined;
  at = nonEmptyString(line, at + 6);
  if (at < 0 || !line.startsWith(',"hash":"', at)) return undefined;
  const hashStart = at + 1; // the hash member, from its key to the comma after it
  const hashText = line.slice(at + 9, at + 9 + 64);
  at += 9 + 64;
  if (!line.startsWith('","id":', at)) return undefined;
  const afterHash = at + 2;
  at = nonEmptyString(line, at + 7);
  if (at < 0 || !line.startsWith(',"kind":', at)) return undefined;
  const kindStart = at + 8;
  at = nonEmptyString(line, kindStart);
  if (at < 0 || !eventKindPattern.test(line.slice(kindStart + 1, at - 1))) return undefined;
  if (!line.startsWith(',"payload":', at)) return undefined;
  at = value(line, at + 11, 0);
  if (at < 0 || !line.startsWith(',"prev":"', at) || !line.startsWith(head.hash, at + 9)) return undefined;
  at += 9 + head.hash.length;
  if (!line.startsWith('","runId":', at)) return undefined;
  at = nonEmptyString(line, at + 10);
  const tail = `,"schemaVersion":${ledgerSchemaVersion},"seq":${head.seq},"turn":`;
  if (at < 0 || !line.startsWith(tail, at)) return undefined;
  const turnStart = at + tail.length;
  at = number(line, turnStart);
  if (at !== line.length - 1 || line.charCodeAt(at) !== 0x7d) return undefined;
  const turn = Number(line.slice(turnStart, at));
  if (!Number.isInteger(turn) || turn < 0) return undefined;
  const hash = sha256Hex(head.hash + line.slice(0, hashStart) + line.slice(afterHash));
  return hash === hashText ? hash : undefined;
}

/** Nesting deeper than this is left to the full check (no deep recursion here). */
const maxDepth = 64;

/** The index past a canonical JSON value starting at `at`, or -1 when undecided. */
function value(text: string, at: number, depth: number): number {
  const code = text.charCodeAt(at);
  if (code === 0x22) return string(text, at);
  if (code === 0x7b) return object(text, at, depth + 1);
  if (code === 0x5b) return array(text, at, depth + 1);
  if (code === 0x74) return text.startsWith('true', at) ? at + 4 : -1;
  if (code === 0x66) return text.startsWith('false', at) ? at + 5 : -1;
  if (code === 0x6e) return text.startsWith('null', at) ? at + 4 : -1;
  return number(text, at);
}

function object(text: string, at: number, depth: number): number {
  if (depth > maxDepth) return -1;
  let index = at + 1;
  if (text.charCodeAt(index) === 0x7d) return index + 1;
  let previous = -1; // where the previous key's text starts (after its quote)
  let previousEnd = -1; // where it ends (at its closing quote)
  for (;;) {
    const end = key(text, index);
    // A key with an escape would need decoding to compare: undecided. Keys must strictly ascend.
    if (end < 0) return -1;
    if (previous >= 0 && !ascending(text, previous, previousEnd, index + 1, end - 1)) return -1;
    previous = index + 1;
    previousEnd = end - 1;
    if (text.charCodeAt(end) !== 0x3a) return -1;
    index = value(text, end + 1, depth);
    if (index < 0) return -1;
    const next = text.charCodeAt(index);
    if (next === 0x7d) return index + 1;
    if (next !== 0x2c) return -1;
    index++;
  }
}

/** True when text[a, aEnd) sorts strictly before text[b, bEnd) by UTF-16 code units (as `<` does). */
function ascending(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  const length = Math.min(aEnd - a, bEnd - b);
  for (let offset = 0; offset < length; offset++) {
    const left = text.charCodeAt(a + offset);
    const right = text.charCodeAt(b + offset);
    if (left !== right) return left < right;
  }
  return aEnd - a < bEnd - b;
}

function array(text: string, at: number, depth: number): number {
  if (depth > maxDepth) return -1;
  let index = at + 1;
  if (text.charCodeAt(index) === 0x5d) return index + 1;
  for (;;) {
    index = value(text, index, depth);
    if (index < 0) return -1;
    const next = text.charCodeAt(index);
    if (next === 0x5d) return index + 1;
    if (next !== 0x2c) return -1;
    index++;
  }
}

/** A string of at least one character (the envelope's names), or -1. */
function nonEmptyString(text: string, at: number): number {
  if (text.charCodeAt(at + 1) === 0x22) return -1;
  return text.charCodeAt(at) === 0x22 ? string(text, at) : -1;
}

/**
 * A string as JSON.stringify writes it: no raw control character or lone surrogate, and only the
 * short escapes `\"` `\\` `\b` `\f` `\n` `\r` `\t` (any `\u` or `\/` escape is left to the full
 * check). Sticky, and run by the regular expression engine: far faster than a loop over char codes.
 * Unrolled (a run of plain characters, then an escape or a pair and another run) so that a string
 * of megabytes needs no backtracking state per character.
 */
const stringPattern =
  /"[^"\\\u0000-\u001f\ud800-\udfff]*(?:(?:\\["\\bfnrt]|[\ud800-\udbff][\udc00-\udfff])[^"\\\u0000-\u001f\ud800-\udfff]*)*"/y;
/** An object key: the same without any escape (a key with one would need decoding to be compared). */
const keyPattern =
  /"[^"\\\u0000-\u001f\ud800-\udfff]*(?:[\ud800-\udbff][\udc00-\udfff][^"\\\u0000-\u001f\ud800-\udfff]*)*"/y;

/** The index past a string in the form JSON.stringify writes, or -1 (also for anything unusual). */
function string(text: string, at: number): number {
  stringPattern.lastIndex = at;
  return stringPattern.test(text) ? stringPattern.lastIndex : -1;
}

/** The index past an object key without escapes, or -1. */
function key(text: string, at: number): number {
  keyPattern.lastIndex = at;
  return keyPattern.test(text) ? keyPattern.lastIndex : -1;
}

/** The index past a number written exactly as ECMAScript writes it, or -1. */
function number(text: string, at: number): number {
  let index = at;
  let digitsOnly = true;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x30 && code <= 0x39) continue;
    // '-', '+', '.', 'e': the other characters of a JSON number.
    if (code === 0x2d || code === 0x2b || code === 0x2e || code === 0x65) digitsOnly = false;
    else break;
  }
  const length = index - at;
  if (length === 0) return -1;
  // A natural number of up to 15 digits without a leading zero is written as it stands.
  if (digitsOnly && length <= 15 && (length === 1 || text.charCodeAt(at) !== 0x30)) return index;
  const numberText = text.slice(at, index);
  return String(Number(numberText)) === numberText ? index : -1;
}
