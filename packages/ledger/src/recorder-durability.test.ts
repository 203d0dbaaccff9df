import { readFileSync } from 'node:fs';
import { defineTool, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileStore } from './file/file-store.js';
import { LedgerRecorder } from './recorder.js';
import { temporaryFiles } from './testing/files.js';
import { verifyLedgerFile } from './verify/verify.js';

const file = temporaryFiles();

/** A gate over a FileStore whose one tool notes, while it runs, what the file and its fsyncs hold. */
async function durableGate(durableBefore: 'dispatch' | 'result' | undefined) {
  const path = file(`calls-${durableBefore}.jsonl`);
  const store = await FileStore.open(path, { durability: 'batch' });
  const seen: { kinds: string[]; fsyncs: number }[] = [];
  const registry = new ToolRegistry().register(
    defineTool({
      name: 'effect',
      description: 'Notes what the ledger holds when it runs.',
      input: z.object({}),
      run: () => {
        const kinds = readFileSync(path, 'utf8')
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line).kind as string);
        seen.push({ kinds: kinds.slice(-2), fsyncs: store.fsyncs });
        return { done: true };
      },
    }),
  );
  const recorder = new LedgerRecorder(store, { runId: 'r', ...(durableBefore ? { durableBefore } : {}) });
  const gate = new ToolGate(registry, { recorder, policy: new RulePolicy({ default: 'allow', rules: [] }) });
  return { path, store, seen, agent: gate.forAgent({ name: 'agent', tools: ['effect'] }) };
}

describe('one call, made durable in as few fsyncs as its guarantee allows', () => {
  it("by default syncs a call's three records as a unit before the result: one fsync a call", async () => {
    const { path, store, seen, agent } = await durableGate(undefined);
    for (let call = 1; call <= 3; call++) {
      const before = store.fsyncs;
      expect((await agent.callTool('effect', {})).isError).toBe(false);
      expect(store.fsyncs - before).toBe(1);
      // Written before the effect (in the file: a crash of the process cannot lose them), not yet synced.
      expect(seen.at(-1)).toEqual({ kinds: ['tool.called', 'policy.decided'], fsyncs: before });
    }
    await store.close();
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 9 });
  });

  it("with durableBefore: 'dispatch', syncs tool.called and policy.decided together before the tool runs, then tool.returned: two fsyncs a call", async () => {
    const { path, store, seen, agent } = await durableGate('dispatch');
    for (let call = 1; call <= 3; call++) {
      const before = store.fsyncs;
      expect((await agent.callTool('effect', {})).isError).toBe(false);
      expect(store.fsyncs - before).toBe(2);
      // When the effect ran, its two records were written and one fsync had finished after them.
      expect(seen.at(-1)).toEqual({ kinds: ['tool.called', 'policy.decided'], fsyncs: before + 1 });
    }
    await store.close();
    expect(await verifyLedgerFile(path)).toMatchObject({ ok: true, count: 9 });
  });

  it("with durableBefore: 'result' said outright, does as the default", async () => {
    const { store, agent } = await durableGate('result');
    const before = store.fsyncs;
    expect((await agent.callTool('effect', {})).isError).toBe(false);
    expect(store.fsyncs - before).toBe(1);
    await store.close();
  });

  it('refuses an unknown durableBefore', async () => {
    const store = await FileStore.open(file('x.jsonl'));
    expect(() => new LedgerRecorder(store, { runId: 'r', durableBefore: 'never' as never })).toThrow(
      /durableBefore "never" is not one of "dispatch", "result"/,
    );
    await store.close();
  });
});
