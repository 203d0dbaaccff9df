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
    let errors = 0;
    let wrong = 0;
    await Promise.all(
      clients.map(async (client, index) => {
        for (let call = 0; call < 20; call++) {
          const seed = `${index}-${call}`;
          try {
            const output = (await client.call('oracle', { seed })) as { omen: string };
            if (output.omen !== drawOmen(seed)) wrong += 1;
          } catch {
            errors += 1;
          }
        }
      }),
    );
    await Promise.all(clients.map((client) => client.close()));
    expect({ errors, wrong }).toEqual({ errors: 0, wrong: 0 });
  }, 60_000);
});
