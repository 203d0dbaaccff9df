/**
 * How deep a record may nest (objects and arrays, the envelope counting as one level). The ledger
 * refuses to seal a payload deeper than this and reports a stored record deeper than this as bad:
 * checking a record must never depend on how much stack the reader has left.
 */
export const maxRecordDepth = 2048;

/**
 * True when JSON text nests objects and arrays deeper than `limit` (brackets inside strings do not
 * count). Linear in the text, no recursion; stops at the first level past the limit.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      index = stringEnd(text, index);
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that closes the string opening at `at` (or the text's end). */
function stringEnd(text: string, at: number): number {
  let index = at + 1;
  for (;;) {
    const quote = text.indexOf('"', index);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    index = quote + 1;
  }
}
