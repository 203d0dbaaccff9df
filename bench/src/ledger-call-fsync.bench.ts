/**
 * One durable call at a time: the three records of a call (tool.called, policy.decided,
 * tool.returned) recorded through `LedgerRecorder` into a `FileStore` with `batch` durability, the
 * next call only after the last resolved. The anchor is how the recorder wrote them before: each
 * record awaited until durable, three fsyncs a call. Against it: the default (`durableBefore:
 * 'dispatch'`, tool.called and policy.decided synced together before the tool would run, then
 * tool.returned: two fsyncs) and `durableBefore: 'result'` (the three as a unit: one fsync).
 * Target (issue 27.5): a lone durable call ≤ 1/3 of before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore, LedgerRecorder } from '@toolgate/ledger';
import { format, median, quick, report, row } from './report.js';

const directory = mkdtempSync(join(tmpdir(), 'toolgate-call-fsync-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
const parameters = { seed: 'moss on the north stones', depth: 3 };
const output = { omen: 'the stone remembers what the river forgot', confidence: 0.42 };

type Side = 'before' | 'dispatch' | 'result';
const names: Record<Side, string> = {
  before: 'before: each record awaited durable (3 fsyncs)',
  dispatch: "durableBefore: 'dispatch' (the default)",
  result: "durableBefore: 'result'",
};
let files = 0;

/** Mean µs per call and fsyncs per call over a window of `milliseconds`. */
async function lone(side: Side, milliseconds: number): Promise<[number, number]> {
  const store = await FileStore.open(join(directory, `calls-${++files}.jsonl`), { durability: 'batch' });
  const recorder = new LedgerRecorder(store, {
    runId: 'bench',
    ...(side === 'before' ? {} : { durableBefore: side }),
  });
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < milliseconds) {
    const base = { callId: `call-${++calls}`, agent: 'fortune-teller', tool: 'oracle' };
    if (side === 'before') {
      // what LedgerRecorder did before: every record its own durable append
      const id = (kind: string) => `bench:${base.callId}:${kind}`;
      const draft = (kind: string, payload: object) => ({
        id: id(kind),
        runId: 'bench',
        kind,
        actor: base.agent,
        payload: { callId: base.callId, tool: base.tool, ...payload },
      });
      await store.append(draft('tool.called', { parameters }));
      await store.append(
        draft('policy.decided', {
          decision: 'allow',
          verdict: { decision: 'allow', rule: 0, reason: 'harmless' },
          reason: 'harmless',
        }),
      );
      await store.append(draft('tool.returned', { isError: false, output, durationMs: 1 }));
    } else {
      await recorder.toolCalled({ ...base, parameters });
      await recorder.policyDecided({
        ...base,
        verdict: { decision: 'allow', rule: 0, reason: 'harmless' },
        decision: 'allow',
        reason: 'harmless',
      });
      await recorder.toolReturned({ ...base, isError: false, output, durationMs: 1 });
    }
  }
  const microseconds = ((performance.now() - started) * 1000) / calls;
  const fsyncs = store.fsyncs / calls;
  await store.close();
  return [microseconds, fsyncs];
}

const sides: Side[] = ['before', 'dispatch', 'result'];
const perSide = new Map<Side, number[]>(sides.map((side) => [side, []]));
const fsyncsPerSide = new Map<Side, number[]>(sides.map((side) => [side, []]));
for (let round = 0; round < (quick ? 2 : 7); round++) {
  for (const side of sides) {
    const [microseconds, fsyncs] = await lone(side, quick ? 200 : 600);
    perSide.get(side)!.push(microseconds);
    fsyncsPerSide.get(side)!.push(fsyncs);
  }
}
const rows = sides.map((side) => row(names[side], perSide.get(side)!, 'µs'));
const dispatchRatio = rows[1]!.median / rows[0]!.median;
const resultRatio = rows[2]!.median / rows[0]!.median;
const fsyncs = sides.map((side) => `${side} ${format(median(fsyncsPerSide.get(side)!))}`).join(', ');
report({
  id: 'ledger-call-fsync',
  title: 'ledger: a lone durable call (batch durability), fsyncs per call',
  what:
    'One call at a time recorded through `LedgerRecorder` into a `FileStore` with `batch` durability (tool.called, ' +
    'policy.decided, tool.returned, each awaited as the gate awaits it), µs per call over a window; sides alternate ' +
    'round by round. The anchor is the recorder as it was: each record awaited until durable. ' +
    '`dispatch` (the default) keeps every effect behind a synced record: tool.called and policy.decided share one fsync ' +
    "before the tool would run, tool.returned has its own. `result` syncs the call's records as a unit before the result.",
  rows,
  figure:
    `default ${format(dispatchRatio)}× before; durableBefore 'result' ${format(resultRatio)}× before; ` +
    `fsyncs per call: ${fsyncs}`,
  target: "≤ 1/3 of before (met by 'result'; the default keeps the sync before the effect: 2 of 3 fsyncs)",
  met: quick ? null : resultRatio <= 1 / 3,
});
