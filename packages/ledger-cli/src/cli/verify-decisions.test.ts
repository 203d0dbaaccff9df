import { readFileSync, writeFileSync } from 'node:fs';
import { RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import {
  FileStore,
  type LedgerEvent,
  LedgerRecorder,
  MemoryStore,
  readAll,
  steppingClock,
} from '@toolgate/ledger';
import { counter, oracle, temporaryFiles } from '@toolgate/ledger/testing';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const file = temporaryFiles();
const policy = {
  default: 'deny' as const,
  rules: [{ tools: ['oracle'], decision: 'deny' as const, reason: 'no omens today' }],
};

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('toolgate-ledger verify --decisions', () => {
  it('passes a ledger whose decisions the recorded policy gives, and names the seq of a forged one', async () => {
    const path = file('run.jsonl');
    const store = await FileStore.open(path, { clock: steppingClock() });
    const recorder = new LedgerRecorder(store, { runId: 'run-1' });
    await recorder.recordPolicy(policy);
    const gate = new ToolGate(new ToolRegistry().register(oracle), {
      recorder,
      policy: new RulePolicy(policy),
      callIds: counter(),
    });
    await gate.forAgent({ name: 'teller', tools: ['oracle'] }).callTool('oracle', { seed: 'moss' });
    await store.close();
    expect(await run('verify', path, '--decisions')).toMatchObject({
      code: 0,
      out: `${path}: ok, 1 decisions re-judged by the recorded policy, all agree\n`,
    });

    // The operator turns the refusal into an allow and re-seals the whole ledger: the chain verifies.
    const forged = new MemoryStore({ clock: steppingClock() });
    for (const line of readFileSync(path, 'utf8').trim().split('\n')) {
      const event = JSON.parse(line) as LedgerEvent;
      const payload = event.payload as Record<string, unknown>;
      if (event.kind === 'policy.decided') {
        payload.decision = 'allow';
        payload.verdict = { decision: 'allow', rule: 0, reason: 'approved' };
      }
      await forged.append({
        id: event.id,
        runId: event.runId,
        turn: event.turn,
        kind: event.kind,
        actor: event.actor,
        payload: payload as never,
      });
    }
    const forgedPath = file('forged.jsonl');
    writeFileSync(forgedPath, forged.toJsonl());
    expect((await readAll(forged.read())).length).toBe(4);
    expect((await run('verify', forgedPath)).code).toBe(0);
    const caught = await run('verify', forgedPath, '--decisions');
    expect(caught.code).toBe(1);
    expect(caught.err).toContain(
      'seq 2 (call call-1, tool oracle): the recorded verdict is allow (rule 0), the recorded policy gives deny (rule 0)',
    );
  });
});
