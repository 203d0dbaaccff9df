/**
 * One durable call at a time: the three records of a call (tool.called, policy.decided,
 * tool.returned) recorded through `LedgerRecorder` into a `FileStore` with `batch` durability, the
 * next call only after the last resolved. The anchor is how the recorder wrote them before: each
 * record awaited until durable, three fsyncs a call. Against it: the default (`durableBefore:
 * 'result'`, the three written before each step and synced as a unit before the result: one
 * fsync), `durableBefore: 'dispatch'` (tool.called and policy.decided synced together before the
 * tool would run, then tool.returned: two fsyncs), and three floors with one fsync a call: the same
 * bytes written with one bare `write`; the call's three lines with three bare `write`s (each record
 * written before the step it guards); and three records made the least a hash chain makes them
 * (JSON.stringify + SHA-256 onto the last hash) and written one by one. Target (issue 27.5): a lone
 * durable call ≤ 1/3 of before.
 */
import { hash } from 'node:crypto';
import { closeSync, fsync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore, LedgerRecorder, MemoryStore } from '@toolgate/ledger';
import { format, median, quick, report, row } from './report.js';

const directory = mkdtempSync(join(tmpdir(), 'toolgate-call-fsync-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
const parameters = { seed: 'moss on the north stones', depth: 3 };
const output = { omen: 'the stone remembers what the river forgot', confidence: 0.42 };

type Floor = 'floor' | 'floor3' | 'chained';
type Side = 'before' | 'result' | 'dispatch' | Floor;
const names: Record<Side, string> = {
  before: 'before: each record awaited durable (3 fsyncs)',
  result: "durableBefore: 'result' (the default)",
  dispatch: "durableBefore: 'dispatch'",
  floor: "floor: one bare write + fsync of a call's bytes",
  floor3: 'floor: three bare writes (a line each) + fsync',
  chained: 'floor: three records chained (JSON.stringify + sha256), written + fsync',
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
const callLines = callBytes
  .toString('utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => Buffer.from(`${line}\n`, 'utf8'));

let chainedPrev = '0'.repeat(64);
/** One record made the least a hash chain makes it (JSON.stringify, SHA-256 onto the last hash) and written. */
function writeChained(fd: number, seq: number, kind: string, callId: string, payload: object): void {
  const envelope = {
    seq,
    id: `bench:${callId}:${kind}`,
    runId: 'bench',
    turn: 0,
    kind,
    actor: 'fortune-teller',
  };
  const text = JSON.stringify({
    ...envelope,
    payload: { callId, tool: 'oracle', ...payload },
    prev: chainedPrev,
  });
  chainedPrev = hash('sha256', chainedPrev + text, 'hex');
  writeSync(fd, `${text.slice(0, -1)},"hash":"${chainedPrev}"}\n`);
}

/** What a floor writes for call `call` (numbered from 1) before its one fsync. */
function writeFloor(side: Floor, fd: number, call: number): void {
  if (side === 'floor') writeSync(fd, callBytes);
  else if (side === 'floor3') for (const line of callLines) writeSync(fd, line);
  else {
    const callId = `call-${call}`;
    writeChained(fd, 3 * call - 3, 'tool.called', callId, { parameters });
    const verdict = { decision: 'allow', rule: 0, reason: 'harmless' };
    writeChained(fd, 3 * call - 2, 'policy.decided', callId, {
      decision: 'allow',
      verdict,
      reason: 'harmless',
    });
    writeChained(fd, 3 * call - 1, 'tool.returned', callId, { isError: false, output, durationMs: 1 });
  }
}

/** Mean µs per call and fsyncs per call of a floor: its writes and one fsync a call, nothing else. */
async function floor(side: Floor, milliseconds: number): Promise<[number, number]> {
  const fd = openSync(join(directory, `floor-${++files}.jsonl`), 'a');
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < milliseconds) {
    writeFloor(side, fd, ++calls);
    await new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
  }
  const microseconds = ((performance.now() - started) * 1000) / calls;
  closeSync(fd);
  return [microseconds, 1];
}

/** Mean µs per call and fsyncs per call over a window of `milliseconds`. */
async function lone(side: Side, milliseconds: number): Promise<[number, number]> {
  if (side === 'floor' || side === 'floor3' || side === 'chained') return floor(side, milliseconds);
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

const sides: Side[] = ['before', 'result', 'dispatch', 'floor', 'floor3', 'chained'];
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
const [before, result, dispatch, bare, bare3, chained] = rows.map((each) => each.median) as [
  number,
  number,
  number,
  number,
  number,
  number,
];
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
    'one fsync before the tool would run, tool.returned has its own. Three floors, one `fsync` a call and no ' +
    "recording: the call's bytes in one bare `write`; its three lines in three (each written before the step it " +
    'guards); and three records made the least a hash chain makes them (JSON.stringify, SHA-256 onto the last ' +
    'hash), each written as it is made. Whatever runs between one fsync and the next runs on a CPU that slept ' +
    'through the fsync, slower than the same code in a hot loop, so the floors part where the work does.',
  rows,
  figure:
    `default ${format(resultRatio)}× before (floors, one fsync each: one bare write ${format(bare / before)}×, ` +
    `three bare writes ${format(bare3 / before)}×, three records chained and written ${format(chained / before)}×; ` +
    `recording adds ${format(result - chained)} µs over the last); durableBefore 'dispatch' ` +
    `${format(dispatch / before)}× before; fsyncs per call: ${fsyncs}`,
  target: met
    ? '≤ 1/3 of before'
    : chained / before > 1 / 3
      ? `≤ 1/3 of before (below the floor of a hash chain that writes each record before the step it guards, ` +
        `${format(chained / before)}× here: one fsync plus three records hashed and written after a wake-up)`
      : '≤ 1/3 of before',
  met: quick ? null : met,
});
