import type { IncomingMessage } from 'node:http';

/** Why a body could not be read: too large (413) or not JSON (400). */
export class BodyError extends Error {
  override readonly name = 'BodyError';
  constructor(
    readonly status: 413 | 400,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads and parses a JSON request body of at most `maxBytes` bytes. A declared or actual size over
 * the limit rejects with a 413 {@link BodyError} as soon as it is known, without buffering the rest.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError(400, 'the request body is not JSON');
  }
}

function tooLarge(maxBytes: number): BodyError {
  return new BodyError(413, `the request body is larger than ${maxBytes} bytes`);
}
