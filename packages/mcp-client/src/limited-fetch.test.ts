import { describe, expect, it } from 'vitest';
import { limitedFetch, MessageTooLarge } from './limited-fetch.js';

const encoder = new TextEncoder();

/** A fetch answering every request with `chunks` as the body, under `status` and `contentType`. */
function source(chunks: string[], contentType: string, status = 200): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
          controller.close();
        },
      }),
      { status, headers: { 'content-type': contentType } },
    );
}

const limits = { maxMessageBytes: 100, maxErrorChars: 600 };

describe('limitedFetch', () => {
  it('lets a long SSE stream of small events through whole, whatever its total', async () => {
    const events = Array.from({ length: 50 }, (_, index) => `data: {"n":${index}}\r\n\r\n`);
    const oversize: Error[] = [];
    const response = await limitedFetch(
      limits,
      (error) => oversize.push(error),
      source(events, 'text/event-stream'),
    )('http://x');
    expect(await response.text()).toBe(events.join(''));
    expect(oversize).toEqual([]);
  });

  it('errors an SSE event past the limit, even one split across chunks, and reports it once', async () => {
    const oversize: Error[] = [];
    const response = await limitedFetch(
      limits,
      (error) => oversize.push(error),
      source(['data: ok\n\n', 'data: ', 'x'.repeat(60), '\ndata: ', 'y'.repeat(60)], 'text/event-stream'),
    )('http://x');
    await expect(response.text()).rejects.toBeInstanceOf(MessageTooLarge);
    expect(oversize).toHaveLength(1);
  });

  it('errors a JSON body past the limit', async () => {
    const oversize: Error[] = [];
    const response = await limitedFetch(
      limits,
      (error) => oversize.push(error),
      source(['{"a":"', 'b'.repeat(200), '"}'], 'application/json'),
    )('http://x');
    await expect(response.json()).rejects.toMatchObject({ limit: 100 });
    expect(oversize).toHaveLength(1);
  });

  it('cuts an error body, with a marker, without reading the rest', async () => {
    const response = await limitedFetch(
      limits,
      () => undefined,
      source(['E'.repeat(5000)], 'text/plain', 500),
    )('http://x');
    const text = await response.text();
    expect(text).toBe(`${'E'.repeat(100)}\n[… truncated: the rest of the body was not read]`);
    expect(response.status).toBe(500);
  });
});
