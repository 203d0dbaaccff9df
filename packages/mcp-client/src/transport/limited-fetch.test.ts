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

const limits = { maxMessageBytes: 100, maxErrorChars: 600, maxBatchMessages: 3 };

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
    const fetching = limitedFetch(
      limits,
      (error) => oversize.push(error),
      source(['{"a":"', 'b'.repeat(200), '"}'], 'application/json'),
    )('http://x');
    await expect(fetching).rejects.toMatchObject({ limit: 100 });
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

  it('refuses a JSON batch of more messages than the limit, and passes a smaller one on whole', async () => {
    const message = '{"jsonrpc":"2.0","method":"n"}';
    const roomy = { ...limits, maxMessageBytes: 10_000 };
    const oversize: Error[] = [];
    const batchOf = (count: number) =>
      limitedFetch(
        roomy,
        (error) => oversize.push(error),
        source([`[${Array(count).fill(message)}]`], 'application/json'),
      )('http://x');
    await expect(batchOf(4)).rejects.toMatchObject({ count: 4, limit: 3 });
    expect(oversize).toHaveLength(1);
    expect(await (await batchOf(3)).json()).toHaveLength(3);
    expect(oversize).toHaveLength(1);
  });
});
