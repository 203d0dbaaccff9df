import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePolicyText } from '@toolgate/core';
import { backtestDecisions, type LedgerEvent, readLedgerFile } from '@toolgate/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { changingServer, scratch } from './testing-fixtures/gateway.js';

describe('a backtest of a recorded gateway run', { timeout: 120_000 }, () => {
  const place = scratch();
  const path = join(place.dir, 'gateway.yaml');
  const ledger = join(place.dir, 'run.ledger.jsonl');
  let gateway: Gateway | undefined;
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });

  it('names exactly the calls a stricter policy on one client would refuse, by the client each decision recorded', async () => {
    writeFileSync(
      path,
      `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ["mine__*"] }
  ci: { tools: ["mine__*"] }
stdio: desktop
ledger: ${JSON.stringify(ledger)}
policy:
  default: allow
  rules: []
`,
    );
    gateway = await Gateway.start(await loadConfig(path));
    expect(
      await gateway.callTool({ client: 'ci', tool: 'mine__note', parameters: { text: 'a' } }),
    ).toMatchObject({
      isError: false,
    });
    expect(await gateway.callTool({ client: 'ci', tool: 'mine__pid', parameters: {} })).toMatchObject({
      isError: false,
    });
    expect(
      await gateway.callTool({ client: 'desktop', tool: 'mine__note', parameters: { text: 'b' } }),
    ).toMatchObject({
      isError: false,
    });
    await gateway.close();
    gateway = undefined;

    const events: LedgerEvent[] = [];
    for await (const event of readLedgerFile(ledger)) events.push(event);
    const decided = events.filter((event) => event.kind === 'policy.decided');
    expect(decided.map((event) => (event.payload as { client?: string }).client)).toEqual([
      'ci',
      'ci',
      'desktop',
    ]);
    const stricter = parsePolicyText(
      'default: allow\nrules:\n  - { clients: [ci], tools: [mine__note], decision: deny, reason: ci only reads }\n',
      'stricter.yaml',
    );
    async function* each() {
      yield* events;
    }
    const result = await backtestDecisions(each(), { policy: stricter });
    expect(result).toMatchObject({ judged: 3, unchanged: 2, unjudged: [] });
    expect(result.groups).toEqual([{ kind: 'allowed → denied', rule: 0, seqs: [decided[0]!.seq] }]);
  });
});
