import { capJsonText, truncationMarker } from '@toolgate/core/internal';

/**
 * The bounds each built-in tool keeps on the fields it builds (one text field, a list of matches);
 * the whole output is capped once more by the gate's `limits`.
 */
export interface FieldLimits {
  /**
   * Characters of any one text field (file content, stdout, a response body) as returned: measured
   * JSON-escaped, so a quote or a newline counts 2 (a field of quotes is not let through at 2× the
   * cap). Default 20,000.
   */
  maxFieldChars: number;
  /** Matches `search_files` returns. Default 200. */
  maxMatches: number;
  /** Entries `list_dir` and paths `glob` return. Default 1,000. */
  maxEntries: number;
  /** Characters of one matching line in `search_files`. Default 500. */
  maxLineChars: number;
}

/** The default caps. */
export const defaultFieldLimits: FieldLimits = Object.freeze({
  maxFieldChars: 20_000,
  maxMatches: 200,
  maxEntries: 1_000,
  maxLineChars: 500,
});

/**
 * Caps a text at `max` JSON-escaped characters (plus a marker); adds a marker for bytes the
 * environment already left out.
 */
export function capField(text: string, max: number, omittedBytes = 0): string {
  const capped = capJsonText(text, max).text;
  return omittedBytes > 0 ? capped + truncationMarker(omittedBytes, 'bytes') : capped;
}

/** The first `max` items, and a marker saying how many were left out (absent when none were). */
export function capList<T>(items: readonly T[], max: number, unit: string, total = items.length) {
  const kept = items.slice(0, max);
  const omitted = total - kept.length;
  return omitted > 0 ? { kept, truncated: truncationMarker(omitted, unit).trim() } : { kept };
}
