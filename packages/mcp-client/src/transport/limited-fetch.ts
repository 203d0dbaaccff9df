/** What {@link limitedFetch} needs: the per-message cap, and how much of an error body to keep. */
export interface FetchLimits {
  readonly maxMessageBytes: number;
  readonly maxErrorChars: number;
  readonly maxBatchMessages: number;
}

/** Statuses whose body the SDK never reads (202 answers a notification; it is cancelled unread). */
const unreadBodyStatuses = new Set([101, 103, 202, 204, 205, 304]);
const encoder = new TextEncoder();

/**
 * A `fetch` for the SDK's streamable HTTP transport whose response bodies are counted as they
 * arrive, so no server can make this process buffer more than it allows:
 * - a JSON body past `maxMessageBytes`, or one SSE event past it (an unterminated line included),
 *   errors the body at that byte, cancels the rest, and calls `onOversize` (the connection fails);
 * - an error status's body is cut (leaving room in `maxErrorChars` for what the SDK says around it),
 *   with a marker, and the rest is never read;
 * - a JSON batch of more than `maxBatchMessages` messages fails the same way (the SDK would check
 *   each one synchronously, stalling every other server's calls).
 */
export function limitedFetch(
  limits: FetchLimits,
  onOversize: (error: Error) => void,
  base: typeof fetch = fetch,
): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body === null || unreadBodyStatuses.has(response.status)) return response;
    // A declared length within the cap needs no counting: the HTTP parser reads no more than that.
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    const cap = response.ok ? limits.maxMessageBytes : errorBodyBytes(limits);
    const counted =
      Number.isSafeInteger(declared) && declared <= cap ? response : limitBody(response, limits, onOversize);
    if (!response.ok || !/^\s*application\/json/i.test(response.headers.get('content-type') ?? ''))
      return counted;
    return checkBatch(counted, limits.maxBatchMessages, onOversize);
  };
}

function limitBody(response: Response, limits: FetchLimits, onOversize: (error: Error) => void): Response {
  const body = response.ok
    ? response.body!.pipeThrough(countingStream(response, limits.maxMessageBytes, onOversize))
    : response.body!.pipeThrough(cuttingStream(errorBodyBytes(limits)));
  return withBody(response, body);
}

/** Reads a JSON body (already counted) and refuses a batch of more than `max` messages. */
async function checkBatch(
  response: Response,
  max: number,
  onOversize: (error: Error) => void,
): Promise<Response> {
  const text = await response.text();
  if (/^\s*\[/.test(text)) {
    let count = 0;
    try {
      const parsed: unknown = JSON.parse(text);
      count = Array.isArray(parsed) ? parsed.length : 0;
    } catch {
      // not JSON: the SDK reports it
    }
    if (count > max) {
      const error = new BatchTooLarge(count, max);
      onOversize(error);
      throw error;
    }
  }
  return withBody(response, text);
}

function withBody(response: Response, body: ReadableStream<Uint8Array> | string): Response {
  const copy = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(copy, 'url', { value: response.url });
  return copy;
}

/** The error a JSON batch of too many messages fails with. */
export class BatchTooLarge extends Error {
  override readonly name = 'BatchTooLarge';
  constructor(
    readonly count: number,
    readonly limit: number,
  ) {
    super(`a batch of ${count} messages in one response, more than ${limit}`);
  }
}

/** How much of an error body is kept: `maxErrorChars`, less room for what the SDK says around it. */
function errorBodyBytes(limits: FetchLimits): number {
  return Math.max(0, limits.maxErrorChars - 500);
}

/** The error a body past the per-message cap fails with. */
export class MessageTooLarge extends Error {
  override readonly name = 'MessageTooLarge';
  constructor(readonly limit: number) {
    super(`a message from the server passed the limit of ${limit} bytes`);
  }
}

function countingStream(
  response: Response,
  limit: number,
  onOversize: (error: Error) => void,
): TransformStream<Uint8Array, Uint8Array> {
  const contentType = response.headers.get('content-type') ?? '';
  const meter = /^\s*text\/event-stream/i.test(contentType) ? eventMeter(limit) : totalMeter(limit);
  return new TransformStream({
    transform(chunk, controller) {
      if (meter(chunk)) {
        const error = new MessageTooLarge(limit);
        onOversize(error);
        controller.error(error);
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/** True once the whole body passes `limit`. */
function totalMeter(limit: number): (chunk: Uint8Array) => boolean {
  let total = 0;
  return (chunk) => {
    total += chunk.byteLength;
    return total > limit;
  };
}

const lineFeed = 10;
const carriageReturn = 13;

/** True once one SSE event (bytes since the last blank line) passes `limit`. */
function eventMeter(limit: number): (chunk: Uint8Array) => boolean {
  let eventBytes = 0;
  let lineLength = 0;
  let afterCarriageReturn = false;
  return (chunk) => {
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (byte === lineFeed || byte === carriageReturn) {
        const secondHalfOfCrLf = byte === lineFeed && afterCarriageReturn;
        afterCarriageReturn = byte === carriageReturn;
        if (secondHalfOfCrLf) continue;
        if (lineLength === 0) eventBytes = 0;
        lineLength = 0;
        continue;
      }
      afterCarriageReturn = false;
      lineLength += 1;
      eventBytes += 1;
      if (eventBytes > limit) return true;
    }
    return false;
  };
}

function cuttingStream(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let kept = 0;
  return new TransformStream({
    transform(chunk, controller) {
      const room = maxBytes - kept;
      if (chunk.byteLength <= room) {
        kept += chunk.byteLength;
        controller.enqueue(chunk);
        return;
      }
      if (room > 0) controller.enqueue(chunk.subarray(0, room));
      controller.enqueue(encoder.encode(`\n[… truncated: the rest of the body was not read]`));
      controller.terminate();
    },
  });
}
