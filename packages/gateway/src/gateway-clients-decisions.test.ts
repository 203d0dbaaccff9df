import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStore, type LedgerEvent, readAll, readLedgerFile } from '@toolgate/ledger';
import { main } from '@toolgate/ledger-cli';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { changingServer, scratch } from './testing-fixtures/gateway.js';

async function verifyDecisions(ledger: string) {
  const out: string[] = [];
  const code = await main(['verify', ledger, '--decisions'], {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => out.push(text) },
    env: {},
  });
  return { code, out: out.join('') };
}

/** The ledger rewritten with one record changed and every hash re-sealed: its chain verifies. */
async function rewritten(
  from: readonly LedgerEvent[],
  path: string,
  change: (event: LedgerEvent) => Record<string, unknown> | undefined,
): Promise<string> {
  const store = await FileStore.open(path);
  for (const event of from) {
    const payload = (change(event) ?? event.payload) as LedgerEvent['payload'];
    await store.append({
      id: event.id,
      runId: event.runId,
      turn: event.turn,
      kind: event.kind,
      actor: event.actor,
      payload,
    });
  }
  await store.close();
  return path;
}

describe('verify --decisions on a gateway whose policy has rules per client', { timeout: 120_000 }, () => {
  const place = scratch();
  const path = join(place.dir, 'gateway.yaml');
  const ledger = join(place.dir, 'clients.ledger.jsonl');
  let gateway: Gateway | undefined;
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });

  it('re-judges each decision with the client it recorded, and fails one moved to another client or flipped', async () => {
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
  - layer: managed
    rules:
      - { clients: [ci], tools: [mine__note], decision: deny, reason: ci only reads }
  - layer: team
    default: allow
    rules:
      - { clients: [desktop], tools: [mine__pid], decision: deny, reason: the desktop has no pids }
`,
    );
    gateway = await Gateway.start(await loadConfig(path));
    const call = (client: string, tool: string) =>
      gateway!.callTool({ client, tool, parameters: tool === 'mine__note' ? { text: client } : {} });
    expect(await call('ci', 'mine__note')).toMatchObject({
      isError: true,
      error: { code: 'PERMISSION_DENIED' },
    });
    expect(await call('ci', 'mine__pid')).toMatchObject({ isError: false });
    expect(await call('desktop', 'mine__note')).toMatchObject({ isError: false });
    expect(await call('desktop', 'mine__pid')).toMatchObject({
      isError: true,
      error: { code: 'PERMISSION_DENIED' },
    });
    await gateway.close();
    gateway = undefined;

    const events = await readAll(readLedgerFile(ledger));
    const decided = events.filter((event) => event.kind === 'policy.decided');
    expect(
      decided.map((event) => [
        (event.payload as { client?: string }).client,
        (event.payload as { decision?: string }).decision,
      ]),
    ).toEqual([
      ['ci', 'deny'],
      ['ci', 'allow'],
      ['desktop', 'allow'],
      ['desktop', 'deny'],
    ]);
    const honest = await verifyDecisions(ledger);
    expect(honest.out).toMatch(/ok, 4 decisions re-judged/);
    expect(honest.code).toBe(0);

    // ci's refusal, recorded as the desktop's: the desktop may write notes, so the policy gives allow.
    const [ciDenied, , , desktopDenied] = decided as [LedgerEvent, LedgerEvent, LedgerEvent, LedgerEvent];
    const moved = await rewritten(events, join(place.dir, 'moved.ledger.jsonl'), (event) =>
      event.seq === ciDenied.seq ? { ...(event.payload as object), client: 'desktop' } : undefined,
    );
    const caughtMove = await verifyDecisions(moved);
    expect(caughtMove.code).toBe(1);
    expect(caughtMove.out).toContain(
      `seq ${ciDenied.seq} (call ${(ciDenied.payload as { callId: string }).callId}, tool mine__note): the recorded verdict is deny (rule 0 of layer managed), the recorded policy gives allow (the default)`,
    );

    // The desktop's refusal flipped to allow, verdict and all.
    const flipped = await rewritten(events, join(place.dir, 'flipped.ledger.jsonl'), (event) => {
      if (event.seq !== desktopDenied.seq) return undefined;
      const payload = event.payload as { verdict: object };
      return { ...payload, decision: 'allow', verdict: { ...payload.verdict, decision: 'allow' } };
    });
    const caughtFlip = await verifyDecisions(flipped);
    expect(caughtFlip.code).toBe(1);
    expect(caughtFlip.out).toMatch(
      new RegExp(
        `seq ${desktopDenied.seq} \\(call [^,]+, tool mine__pid\\): the recorded verdict is allow \\(rule 0 of layer team\\), the recorded policy gives deny \\(rule 0 of layer team\\)`,
      ),
    );
  });
});
