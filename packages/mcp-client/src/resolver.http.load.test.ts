import { drawOmen } from '@toolgate/builtins';
import { type HttpChild, startHttpCli } from '@toolgate/mcp-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPResolver } from './resolver.js';

describe('toolgate-mcp --http under load', () => {
  let http: HttpChild;
  beforeAll(async () => {
    http = await startHttpCli();
  });
  afterAll(async () => {
    await http.stop();
  });

  it('serves 100 concurrent clients × 20 calls with zero errors', async () => {
    const clients = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        MCPResolver.connect([{ name: `client-${index}`, url: http.url }]),
      ),
    );
    // Every failure is kept with what went wrong, so a red run says why, not only how often.
    const failures: string[] = [];
    await Promise.all(
      clients.map(async (client, index) => {
        for (let call = 0; call < 20; call++) {
          const seed = `${index}-${call}`;
          try {
            const output = (await client.call('oracle', { seed })) as { omen: string };
            if (output.omen !== drawOmen(seed)) failures.push(`${seed}: wrong omen ${output.omen}`);
          } catch (error) {
            failures.push(`${seed}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      }),
    );
    await Promise.all(clients.map((client) => client.close()));
    expect(failures.slice(0, 5), `${failures.length} of 2000 calls failed`).toEqual([]);
  }, 180_000); // 100 sessions and 2,000 calls over HTTP: minutes, not seconds, on a loaded 2-core machine
});
