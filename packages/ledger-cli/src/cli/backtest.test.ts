import { readFileSync, writeFileSync } from 'node:fs';
import { defineTool, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { FileStore, type LedgerEvent, LedgerRecorder, steppingClock } from '@toolgate/ledger';
import { counter, oracle, temporaryFiles } from '@toolgate/ledger/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from './main.js';

const file = temporaryFiles();

const reader = defineTool({
  name: 'reader',
  description: 'Reads a path.',
  input: z.object({ path: z.string().describe('A workspace path.') }),
  run: ({ path }) => ({ path }),
  policySubject: ({ path }) => ({ paths: [path] }),
});

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

/** A ledger file of a real gate's calls under a lenient policy; returns its path. */
async function recorded(): Promise<string> {
  const path = file('run.jsonl');
  const store = await FileStore.open(path, { clock: steppingClock() });
  const gate = new ToolGate(new ToolRegistry().register(reader).register(oracle), {
    recorder: new LedgerRecorder(store, { runId: 'run-1' }),
    policy: new RulePolicy({ default: 'allow', rules: [] }),
    callIds: counter(),
  });
  const agent = gate.forAgent({ name: 'a', tools: ['reader', 'oracle'] });
  await agent.callTool('reader', { path: 'src/a.ts' }); // seqs 0–2
  await agent.callTool('reader', { path: '.env' }); // seqs 3–5
  await agent.callTool('oracle', { seed: 'moss' }); // seqs 6–8
  await store.close();
  return path;
}

describe('toolgate-ledger backtest', () => {
  it('prints the recorded calls a stricter policy would change, by rule, with their seqs', async () => {
    const ledger = await recorded();
    const policy = file('stricter.yaml');
    writeFileSync(
      policy,
      'default: allow\nrules:\n  - { tools: [reader], paths: [".env", "**/.env"], decision: deny, reason: secrets }\n  - { tools: [oracle], decision: ask }\n',
    );
    const { code, out, err } = await run('backtest', ledger, '--policy', policy);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe(
      `${ledger}: 3 decisions judged again, 2 would change, 1 would not\n` +
        'allowed → denied by rule 0 of layer stricter: seq 4\n' +
        '  seq 4 a → reader (call call-2): was allow; secrets\n' +
        'new ask by rule 1 of layer stricter: seq 7\n' +
        '  seq 7 a → oracle (call call-3): was allow; rule 1 of layer stricter (ask tools oracle)\n',
    );
    const json = await run('backtest', ledger, '--policy', policy, '--json');
    expect(JSON.parse(json.out).groups).toEqual([
      { kind: 'allowed → denied', rule: 0, layer: 'stricter', seqs: [4] },
      { kind: 'new ask', rule: 1, layer: 'stricter', seqs: [7] },
    ]);
  });

  it('says what to do with a ledger written before subjects were recorded, and exits 1', async () => {
    const ledger = await recorded();
    // the same calls as a ledger of an older toolgate holds them: no subject in its decisions
    const stripped = file('old.jsonl');
    const store = await FileStore.open(stripped, { clock: steppingClock() });
    for (const line of readFileSync(ledger, 'utf8').trim().split('\n')) {
      const { id, runId, turn, kind, actor, payload } = JSON.parse(line) as LedgerEvent;
      const { subject: _subject, ...rest } = payload as Record<string, unknown>;
      await store.append({ id, runId, turn, kind, actor, payload: rest as never });
    }
    await store.close();
    const policy = file('paths.yaml');
    writeFileSync(policy, 'rules:\n  - { tools: [reader], paths: ["src/**"], decision: allow }\n');
    const some = await run('backtest', stripped, '--policy', policy);
    expect(some.code).toBe(1);
    expect(some.out).toContain('not judged: seq 1 (call call-1, tool reader): the record holds no subject');
    expect(some.out).toContain('1 decisions judged again'); // oracle's: no rule on paths names it
    writeFileSync(policy, 'rules:\n  - { paths: ["src/**"], decision: allow }\n');
    const none = await run('backtest', stripped, '--policy', policy);
    expect(none.code).toBe(1);
    expect(none.err).toContain('none of its 3 decisions could be judged');
    expect(none.err).toContain('Backtest a ledger recorded by this version of toolgate');
  });

  it('refuses usage it cannot follow, naming what is missing', async () => {
    expect(await run('backtest', 'x.jsonl')).toMatchObject({
      code: 2,
      err: expect.stringContaining('"backtest" needs --policy FILE'),
    });
    const missing = await run('backtest', await recorded(), '--policy', file('nowhere.yaml'));
    expect(missing).toMatchObject({ code: 3, err: expect.stringContaining('cannot read the policy file') });
  });
});
