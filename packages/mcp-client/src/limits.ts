/**
 * How much one MCP server may make this process hold, read or do on the wire (messages, lists,
 * notifications; never a tool output: the gate caps those, once). Every limit has a default chosen
 * for real servers; a server config can set any of them (`limits: { maxMessageBytes: … }`).
 */
export interface WireLimits {
  /**
   * The bytes of any one message from the server (a JSON-RPC line over stdio, a JSON body or one
   * SSE event over HTTP), counted as they arrive: the connection fails at the first byte past it,
   * before the message is buffered whole. Default 4 MiB.
   */
  maxMessageBytes?: number;
  /**
   * Messages in one JSON batch over HTTP: more fails the connection like an oversized message
   * (checking each would stall every server's calls). Default 100.
   */
  maxBatchMessages?: number;
  /** The bytes of one whole `tools/list`, all pages together. Default 8 MiB. */
  maxListBytes?: number;
  /** The number of tools one server may list. Default 1,000. */
  maxTools?: number;
  /** A tool description longer than this is cut, with a marker. Default 16,384 characters. */
  maxDescriptionChars?: number;
  /** A tool whose input schema is larger than this (as JSON) is not served. Default 256 KiB. */
  maxSchemaBytes?: number;
  /** A tool whose input schema nests deeper than this (objects and arrays) is not served. Default 64. */
  maxSchemaDepth?: number;
  /** Error text from the server (an error result, a JSON-RPC error, an HTTP error body) is cut here, with a marker. Default 10,000 characters. */
  maxErrorChars?: number;
  /**
   * Notifications (progress, log messages — all but `tools/list_changed`, which is coalesced) let
   * through per second, in bursts of up to twice that; the rest are dropped before any handler runs
   * and counted. Default 20.
   */
  maxNotificationsPerSecond?: number;
}

/** Every limit, set. */
export type ResolvedLimits = Readonly<Required<WireLimits>>;

const mebibyte = 1024 * 1024;

/**
 * The defaults. 4 MiB a message: ~40 times the largest output a model is shown by default (100,000
 * characters) and room for a screenshot as base64, while parsing the worst 4 MiB (1.4 million `{}`)
 * peaks at about 105 MiB of heap. 8 MiB a list: real servers list tens to hundreds of tools
 * in well under 1 MB.
 */
export const defaultLimits: ResolvedLimits = Object.freeze({
  maxMessageBytes: 4 * mebibyte,
  maxBatchMessages: 100,
  maxListBytes: 8 * mebibyte,
  maxTools: 1000,
  maxDescriptionChars: 16_384,
  maxSchemaBytes: 256 * 1024,
  maxSchemaDepth: 64,
  maxErrorChars: 10_000,
  maxNotificationsPerSecond: 20,
});

/** The limits in force: `limits` over the defaults. */
export function resolveLimits(limits: WireLimits | undefined): ResolvedLimits {
  return Object.freeze({ ...defaultLimits, ...definedOnly(limits ?? {}) });
}

/** The first problem with `limits`, as a sentence, or undefined when every set limit is a positive integer. */
export function limitsProblem(limits: unknown): string | undefined {
  if (limits === undefined) return undefined;
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) {
    return `limits must be an object such as { maxMessageBytes: 4194304 }, not ${JSON.stringify(limits)}`;
  }
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in defaultLimits)) {
      return `limits.${key} is not a limit; known: ${Object.keys(defaultLimits).join(', ')}`;
    }
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) > 0)) {
      return `limits.${key} must be a positive integer, not ${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

/** A byte count as people read it: `4 MiB`, `300 KiB`, `512 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= mebibyte && bytes % mebibyte === 0) return `${bytes / mebibyte} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function definedOnly(limits: WireLimits): WireLimits {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}
