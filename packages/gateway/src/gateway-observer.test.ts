import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallObserver } from '@toolgate/core';
import { readAll } from '@toolgate/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { changingServer, scratch } from './testing-fixtures/gateway.js';

describe("the gateway's observer", { timeout: 120_000 }, () => {
  const place = scratch();
  let gateway: Gateway | undefined;
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });

  it('is told of each call with the client as agent, and where its tool.returned landed in the ledger', async () => {
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(
      path,
      `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ["mine__pid"] }
stdio: desktop
ledger: ./observed.ledger.jsonl
`,
    );
    const seen: {
      agent: string;
      tool: string;
      code: string;
      seq: number | undefined;
      runId: string | undefined;
    }[] = [];
    const observer: CallObserver = {
      callStarted: (call) => ({
        ended: (ending) =>
          seen.push({
            agent: call.agent,
            tool: call.tool,
            code: ending.error?.code ?? 'ok',
            seq: ending.ledger?.seq,
            runId: ending.ledger?.runId,
          }),
      }),
    };
    gateway = await Gateway.start(await loadConfig(path), { observer, runId: 'gateway-run' });
    await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} });
    await gateway.callTool({ client: 'desktop', tool: 'mine__note', parameters: {} });
    const returned = (await readAll(gateway.store.read())).filter((event) => event.kind === 'tool.returned');
    expect(seen).toEqual([
      { agent: 'desktop', tool: 'mine__pid', code: 'ok', seq: returned[0]!.seq, runId: 'gateway-run' },
      {
        agent: 'desktop',
        tool: 'mine__note',
        code: 'CAPABILITY_VIOLATION',
        seq: returned[1]!.seq,
        runId: 'gateway-run',
      },
    ]);
  });
});
