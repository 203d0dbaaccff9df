/**
 * One durable call at a time: the three records of a call (tool.called, policy.decided,
 * tool.returned) recorded through `LedgerRecorder` into a `FileStore` with `batch` durability, the
 * next call only after the last resolved. The anchor is how the recorder wrote them before: each
 * record awaited until durable, three fsyncs a call. Against it: the default (`durableBefore:
 * 'result'`, the three written before each step and synced as a unit before the result: one
 * fsync), `durableBefore: 'dispatch'` (tool.called and policy.decided synced together before the
 * tool would run, then tool.returned: two fsyncs), and the floor: the same bytes written with one
 * bare `write` and one `fsync`, no recording. Target (issue 27.5): a lone durable call ≤ 1/3 of
 * before.
 */
import { closeSync, fsync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore, LedgerRecorder, MemoryStore } from '@toolgate/ledger';
import { format, median, quick, report, row } from './report.js';

const directory = mkdtempSync(join(tmpdir(), 'toolgate-call-fsync-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
const parameters = { seed: 'moss on the north stones', depth: 3 };
const output = { omen: 'the stone remembers what the river forgot', confidence: 0.42 };

type Side = 'before' | 'result' | 'dispatch' | 'floor';
const names: Record<Side, string> = {
  before: 'before: each record awaited durable (3 fsyncs)',
  result: "durableBefore: 'result' (the default)",
  dispatch: "durableBefore: 'dispatch'",
  floor: "floor: one bare write + fsync of a call's bytes",
};
let files = 0;

/** A call's three records through the recorder, each awaited as the gate awaits it. */
async function recordCall(
  recorder: LedgerRecorder,
  base: { callId: string; agent: string; tool: string },
): Promise<void> {
  await recorder.toolCalled({ ...base, parameters });
  await recorder.policyDecided({
    ...base,
    verdict: { decision: 'allow', rule: 0, reason: 'harmless' },
    decision: 'allow',
    reason: 'harmless',
  });
  await recorder.toolReturned({ ...base, isError: false, output, durationMs: 1 });
}

/** A call's three records, the bytes a `FileStore` writes for them: what the floor writes each call. */
async function callBytesOf(): Promise<Buffer> {
  const store = new MemoryStore();
  const recorder = new LedgerRecorder(store, { runId: 'bench' });
  await recordCall(recorder, { callId: 'call-1', agent: 'fortune-teller', tool: 'oracle' });
  return Buffer.from(store.toJsonl(), 'utf8');
}
const callBytes = await callBytesOf();

/** Mean µs per call and fsyncs per call of the floor: one write and one fsync a call, nothing else. */
async function floor(milliseconds: number): Promise<[number, number]> {
  const fd = openSync(join(directory, `floor-${++files}.jsonl`), 'a');
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < milliseconds) {
    calls++;
    writeSync(fd, callBytes);
    await new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
  }
  const microseconds = ((performance.now() - started) * 1000) / calls;
  closeSync(fd);
  return [microseconds, 1];
}

/** Mean µs per call and fsyncs per call over a window of `milliseconds`. */
async function lone(side: Side, milliseconds: number): Promise<[number, number]> {
  if (side === 'floor') return floor(milliseconds);
  const store = await FileStore.open(join(directory, `calls-${++files}.jsonl`), { durability: 'batch' });
  const recorder = new LedgerRecorder(store, {
    runId: 'bench',
    ...(side === 'dispatch' ? { durableBefore: side } : {}),
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
      await recordCall(recorder, base);
    }
  }
  const microseconds = ((performance.now() - started) * 1000) / calls;
  const fsyncs = store.fsyncs / calls;
  await store.close();
  return [microseconds, fsyncs];
}

const sides: Side[] = ['before', 'result', 'dispatch', 'floor'];
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
const [before, result, dispatch, bare] = rows.map((each) => each.median) as [number, number, number, number];
const resultRatio = result / before;
const fsyncs = sides.map((side) => `${side} ${format(median(fsyncsPerSide.get(side)!))}`).join(', ');
const met = resultRatio <= 1 / 3;
report({
  id: 'ledger-call-fsync',
  title: 'ledger: a lone durable call (batch durability), fsyncs per call',
  what:
    'One call at a time recorded through `LedgerRecorder` into a `FileStore` with `batch` durability (tool.called, ' +
    'policy.decided, tool.returned, each awaited as the gate awaits it), µs per call over a window; sides alternate ' +
    'round by round. The anchor is the recorder as it was: each record awaited until durable. ' +
    "`result` (the default) writes each record before the step it guards and syncs the call's records as a unit " +
    'before the result; `dispatch` keeps every effect behind a synced record: tool.called and policy.decided share ' +
    'one fsync before the tool would run, tool.returned has its own. The floor: the same bytes with one bare ' +
    '`write` and one `fsync` a call, no recording at all.',
  rows,
  figure:
    `default ${format(resultRatio)}× before (floor: one bare write + fsync ${format(bare / before)}×; ` +
    `recording adds ${format(result - bare)} µs over it); durableBefore 'dispatch' ${format(dispatch / before)}× before; ` +
    `fsyncs per call: ${fsyncs}`,
  target: met
    ? '≤ 1/3 of before'
    : '≤ 1/3 of before (which assumes recording costs nothing: the default is one fsync, as the floor, plus the recording)',
  met: quick ? null : met,
});
