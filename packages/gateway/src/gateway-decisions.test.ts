import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLedgerFile, verifyDecisions } from '@toolgate/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { changingServer, scratch } from './testing-fixtures/gateway.js';

describe('the policy a gateway records', { timeout: 120_000 }, () => {
  const place = scratch();
  const path = join(place.dir, 'gateway.yaml');
  const ledger = join(place.dir, 'decisions.ledger.jsonl');
  let gateway: Gateway | undefined;
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });
  const config = (denied: string) => `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ["mine__*"] }
stdio: desktop
ledger: ./decisions.ledger.jsonl
policy:
  default: allow
  rules:
    - { tools: [${denied}], decision: deny, reason: not today }
`;

  it('records its policy at start and at each reload, so every decision of a real run re-judges', async () => {
    writeFileSync(path, config('mine__note'));
    gateway = await Gateway.start(await loadConfig(path));
    expect(
      await gateway.callTool({ client: 'desktop', tool: 'mine__note', parameters: { text: 'x' } }),
    ).toMatchObject({
      isError: true,
      error: { code: 'PERMISSION_DENIED' },
    });
    expect(await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} })).toMatchObject({
      isError: false,
    });
    writeFileSync(path, config('mine__pid'));
    await gateway.reload(await loadConfig(path));
    expect(await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} })).toMatchObject({
      isError: true,
    });
    expect(
      await gateway.callTool({ client: 'desktop', tool: 'mine__note', parameters: { text: 'y' } }),
    ).toMatchObject({
      isError: false,
    });
    await gateway.close();
    gateway = undefined;
    const kinds = [];
    for await (const event of readLedgerFile(ledger)) kinds.push(event.kind);
    expect(kinds.filter((kind) => kind === 'policy.recorded')).toHaveLength(2);
    const result = await verifyDecisions(readLedgerFile(ledger));
    expect(result).toMatchObject({ ok: true, faults: [] });
    expect(result.agreed).toBe(4);
  });
});
