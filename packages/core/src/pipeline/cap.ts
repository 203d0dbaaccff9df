import { type ContentPart, isToolOutput } from '../content.js';
import { capToolOutput, defaultMaxContentBytes } from '../content-caps.js';
import { messageOf, ToolgateError } from '../errors.js';
import { capJsonText, type JsonValue, toCappedJson } from '../json.js';
import type { ToolErrorData } from '../recorder.js';
import { defaultParameterChars } from './parameter-bound.js';

/**
 * The bounds on what one call hands back, owned by the gate and applied once, by its cap station:
 * resolvers, servers and tools pass their results through uncapped. A replay lifts the output
 * bounds (recorded outputs are already capped) and keeps `errorChars`, so errors read the same.
 */
export interface Limits {
  /** The cap on the output's JSON text and on each text part, in characters (escaping counted). Default 100,000. */
  readonly outputChars: number;
  /** The cap on each binary content part (image, audio, embedded blob), in decoded bytes. Default 5 MiB. */
  readonly contentBytes: number;
  /** The cap on one error message, in JSON-escaped characters, plus a marker. Default 10,000. */
  readonly errorChars: number;
  /**
   * The bound on one call's parameters, in characters of their JSON text (escaping counted).
   * Parameters past it are refused with INVALID_PARAMETERS before anything runs; the ledger records
   * only their size and SHA-256 (`{ omitted: { chars, sha256 } }`). Default 1,048,576 (1 MiB);
   * `Infinity` for none.
   */
  readonly parameterChars: number;
}

/** The gate's default {@link Limits}. */
export const defaultLimits: Limits = Object.freeze({
  outputChars: 100_000,
  contentBytes: defaultMaxContentBytes,
  errorChars: 10_000,
  parameterChars: defaultParameterChars,
});

/** Limits with nothing capped but errors: what a replay, or `registry.call`, hands back. */
export const unlimitedOutput: Limits = Object.freeze({
  outputChars: Number.POSITIVE_INFINITY,
  contentBytes: Number.POSITIVE_INFINITY,
  errorChars: defaultLimits.errorChars,
  parameterChars: Number.POSITIVE_INFINITY,
});

/** A call's checked, capped output: JSON, and content parts when the tool returned `toolResult(…)`. */
export type CappedOutput = { output: JsonValue; content?: ContentPart[] };

/**
 * The cap station: the raw output checked as JSON and capped at `outputChars`; content parts, when
 * the tool returned `toolResult(…)`, checked and capped one by one (text at `outputChars`, binary
 * parts at `contentBytes`). A value that is not JSON is INVALID_OUTPUT.
 */
export function capOutputOf(raw: unknown, tool: string, limits: Limits): CappedOutput {
  if (!isToolOutput(raw)) return { output: toCappedJson(raw, limits.outputChars, () => outputOf(tool)) };
  const caps = { maxOutputChars: limits.outputChars, maxContentBytes: limits.contentBytes };
  const { output, content } = capToolOutput(raw, caps, outputOf(tool));
  return { output, content: [...content] };
}

/** The error a model reads, its message capped at `errorChars` (a 2 MB command must not come back whole). */
export function errorDataOf(error: unknown, limits: Limits): ToolErrorData {
  const message = capJsonText(
    ToolgateError.is(error) ? error.message : messageOf(error),
    limits.errorChars,
  ).text;
  return { code: ToolgateError.is(error) ? error.code : 'TOOL_FAILED', message };
}

/** How an output is named in an INVALID_OUTPUT message. */
export function outputOf(tool: string): string {
  return `the output of tool "${tool}"`;
}
