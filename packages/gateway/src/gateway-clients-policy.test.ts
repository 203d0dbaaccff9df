import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { changingServer, scratch } from './testing-fixtures/gateway.js';

describe('policy rules on gateway clients', { timeout: 120_000 }, () => {
  const place = scratch();
  const path = join(place.dir, 'gateway.yaml');
  let gateway: Gateway | undefined;
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });

  it('judges a client’s calls by the rules that name it, and only by those', async () => {
    writeFileSync(
      path,
      `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ["mine__*"] }
  ci: { tools: ["mine__*"] }
stdio: desktop
ledger: ./clients.ledger.jsonl
policy:
  default: allow
  rules:
    - { clients: [ci], tools: [mine__note], decision: deny, reason: ci only reads }
`,
    );
    gateway = await Gateway.start(await loadConfig(path));
    const fromCi = await gateway.callTool({ client: 'ci', tool: 'mine__note', parameters: { text: 'x' } });
    expect(fromCi).toMatchObject({
      isError: true,
      error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('ci only reads') },
    });
    expect(await gateway.callTool({ client: 'ci', tool: 'mine__pid', parameters: {} })).toMatchObject({
      isError: false,
    });
    expect(
      await gateway.callTool({ client: 'desktop', tool: 'mine__note', parameters: { text: 'x' } }),
    ).toMatchObject({
      isError: false,
    });
  });
});
