/**
 * What the ledger costs, three ways:
 * 1. recording one call (tool.called, policy.decided, tool.returned) into the in-memory ledger,
 *    against the floor of any hash chain: JSON.stringify + one-shot SHA-256 of those three events (≤ 1.5×);
 * 2. the JSONL file store with N = 8 and 16 appenders each awaiting one append: `batch` (group commit)
 *    against fsync per append, one at a time (≥ 0.7 × N: a group can merge at most N appends);
 * 3. `verify` of a ledger file, in events per second (≥ 300,000/s), and its memory while it streams.
 */
import { execFileSync } from 'node:child_process';
import { hash } from 'node:crypto';
import { closeSync, fsync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Durability,
  FileStore,
  LedgerRecorder,
  MemoryStore,
  steppingClock,
  verifyLedgerFile,
} from '@toolgate/ledger';
import canonicalize from 'canonicalize';
import { compareLatency } from './compare.js';
import { format, median, quick, report, row } from './report.js';

const directory = mkdtempSync(join(tmpdir(), 'toolgate-ledger-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));

// 1. Recording a call ------------------------------------------------------------------------------
const parameters = { seed: 'moss on the north stones', depth: 3 };
const output = { omen: 'the stone remembers what the river forgot', confidence: 0.42 };
let calls = 0;
let recorder = freshRecorder();
function freshRecorder(): LedgerRecorder {
  return new LedgerRecorder(new MemoryStore({ clock: steppingClock() }), { runId: 'bench' });
}
async function recordCall(): Promise<void> {
  if (++calls % 1_000 === 0) recorder = freshRecorder(); // a run of 1,000 calls, then a fresh ledger
  const callId = `call-${calls}`;
  const base = { callId, agent: 'fortune-teller', tool: 'oracle' };
  await recorder.toolCalled({ ...base, parameters });
  await recorder.policyDecided({
    ...base,
    decision: 'allow',
    verdict: { decision: 'allow', rule: 0, reason: 'harmless' },
    reason: 'harmless',
  });
  await recorder.toolReturned({ ...base, isError: false, output, durationMs: 1 });
}
const envelope = (seq: number, kind: string, payload: unknown, prev: string) => ({
  seq,
  id: `bench:call-1:${kind}`,
  runId: 'bench',
  turn: 0,
  kind,
  actor: 'fortune-teller',
  payload,
  at: '2026-01-01T00:00:00.000Z',
  schemaVersion: 1,
  prev,
});
let floorPrev = '0'.repeat(64);
function hashChainFloor(): void {
  const base = { callId: 'call-1', tool: 'oracle' };
  const payloads: [string, unknown][] = [
    ['tool.called', { ...base, parameters }],
    [
      'policy.decided',
      {
        ...base,
        decision: 'allow',
        verdict: { decision: 'allow', rule: 0, reason: 'harmless' },
        reason: 'harmless',
      },
    ],
    ['tool.returned', { ...base, isError: false, output }],
  ];
  for (const [index, [kind, payload]] of payloads.entries()) {
    floorPrev = hash('sha256', floorPrev + JSON.stringify(envelope(index, kind, payload, floorPrev)), 'hex');
  }
}
let canonicalizePrev = '0'.repeat(64);
/** The floor as the ledger's old serialiser set it: the canonicalize package + SHA-256. */
function canonicalizeFloor(): void {
  const base = { callId: 'call-1', tool: 'oracle' };
  const payloads: [string, unknown][] = [
    ['tool.called', { ...base, parameters }],
    [
      'policy.decided',
      {
        ...base,
        decision: 'allow',
        verdict: { decision: 'allow', rule: 0, reason: 'harmless' },
        reason: 'harmless',
      },
    ],
    ['tool.returned', { ...base, isError: false, output }],
  ];
  for (const [index, [kind, payload]] of payloads.entries()) {
    canonicalizePrev = hash(
      'sha256',
      canonicalizePrev + canonicalize(envelope(index, kind, payload, canonicalizePrev)),
      'hex',
    );
  }
}

await compareLatency({
  id: 'ledger-record',
  title: 'ledger: recording a call against the floor of a hash chain',
  what:
    'One call recorded through `LedgerRecorder` into a `MemoryStore` (tool.called, policy.decided, ' +
    'tool.returned: validation, canonical JSON, SHA-256, chaining, storing) against JSON.stringify + ' +
    'one-shot SHA-256 of the same three events and nothing else. Printed beside: the same with the ' +
    '`canonicalize` package in place of JSON.stringify (the floor as the old serialiser set it).',
  anchor: { name: 'floor: JSON.stringify + sha256 of 3 events', fn: hashChainFloor },
  subject: { name: 'LedgerRecorder → MemoryStore, 3 events', fn: recordCall },
  others: [{ name: 'canonicalize + sha256 of 3 events', fn: canonicalizeFloor }],
  maxRatio: 1.5,
});

// 2. Group commit: N appenders each awaiting one append ---------------------------------------------
let files = 0;
type Mode = Durability | 'serial';
/**
 * Events per second and fsyncs per event with `appenders` appenders, each awaiting one append at a
 * time. `serial` is the simple writer a user would otherwise write: every append followed by its own
 * fsync, one at a time.
 */
async function throughput(mode: Mode, appenders: number, milliseconds: number): Promise<[number, number]> {
  const path = join(directory, `throughput-${++files}.jsonl`);
  const store = await FileStore.open(path, { durability: mode === 'serial' ? 'none' : mode });
  const syncFd = openSync(path, 'r');
  let serialSyncs = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const append = async (actor: string) => {
    await store.append({
      runId: 'bench',
      kind: 'tool.called',
      actor,
      payload: { callId: 'call-1', tool: 'oracle', parameters },
    });
    if (mode !== 'serial') return;
    queue = queue.then(
      () =>
        new Promise((resolve) => {
          serialSyncs++;
          fsync(syncFd, resolve);
        }),
    );
    await queue;
  };
  let appended = 0;
  const started = performance.now();
  const deadline = started + milliseconds;
  await Promise.all(
    Array.from({ length: appenders }, async (_, lane) => {
      while (performance.now() < deadline) {
        await append(`agent-${lane}`);
        appended++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const syncs = mode === 'serial' ? serialSyncs : store.fsyncs;
  await store.close();
  closeSync(syncFd);
  rmSync(path);
  return [appended / seconds, syncs / appended];
}
const rounds = quick ? 2 : 5;
const window = quick ? 200 : 600;
const modes: Mode[] = ['serial', 'always', 'batch', 'none'];
const names: Record<Mode, string> = {
  serial: 'fsync per append, one at a time',
  always: 'always: an fsync per append, concurrently',
  batch: 'batch: group commit (the default)',
  none: 'none: no fsync',
};
for (const appenders of [8, 16]) {
  const perMode = new Map<Mode, number[]>();
  const syncsPerEvent = new Map<Mode, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      const [rate, syncs] = await throughput(mode, appenders, window);
      perMode.set(mode, [...(perMode.get(mode) ?? []), rate]);
      syncsPerEvent.set(mode, [...(syncsPerEvent.get(mode) ?? []), syncs]);
    }
  }
  const rows = modes.map((mode) => row(names[mode], perMode.get(mode)!, 'events/s'));
  const speedup = rows[2]!.median / rows[0]!.median;
  const target = 0.7 * appenders;
  const fsyncs = modes.map((mode) => `${mode} ${format(median(syncsPerEvent.get(mode)!))}`).join(', ');
  report({
    id: `ledger-file-batch-${appenders}`,
    title: `ledger: group commit with ${appenders} appenders each awaiting one append`,
    what:
      `${appenders} appenders each append one event and await it, over and over, for ${window} ms into a JSONL ` +
      'FileStore; events per second. The judged anchor is the writer a user would otherwise write: each append ' +
      'followed by its own fsync, one at a time. A group commit can merge at most one append per appender into ' +
      `an fsync, so the physical ceiling is ${appenders}× that; the target is 0.7 of it. Printed beside: ` +
      '`always` (each append its own fsync, issued concurrently), `none` (no fsync: what the appends cost ' +
      'without the disk, a ceiling no group commit can pass) and the fsyncs per event. Modes alternate round by round.',
    rows,
    figure:
      `${format(speedup)}× the throughput (${format(speedup / appenders)} of the ceiling of ${appenders}×; ` +
      `no fsync at all: ${format(rows[3]!.median / rows[0]!.median)}×); fsyncs per event: ${fsyncs}`,
    target: `≥ ${format(target)}× (0.7 × ${appenders})`,
    met: quick ? null : speedup >= target,
  });
}

// 3. verify -----------------------------------------------------------------------------------------
const events = quick ? 100_000 : 1_000_000;
const ledgerPath = join(directory, 'verify.jsonl');
const writer = await FileStore.open(ledgerPath, { durability: 'none', clock: steppingClock() });
for (let seq = 0; seq < events; seq++) {
  const kind = ['tool.called', 'policy.decided', 'tool.returned'][seq % 3]!;
  await writer.append({
    runId: 'bench',
    kind,
    actor: 'fortune-teller',
    payload: { callId: `call-${seq}`, parameters },
  });
}
await writer.close();
const sides = [
  { name: 'verify (the default: this thread)', options: {} },
  { name: 'verify on 2 worker threads', options: { workers: 2 } },
];
const perSide = sides.map(() => [] as number[]);
const bounded: number[] = [];
/** The single-threaded verify in a child whose heap is a small fraction of the file: it must stream. */
function verifyInSmallHeap(): number {
  const script =
    `const { verifyLedgerFile } = await import('@toolgate/ledger'); const started = performance.now();` +
    `const result = await verifyLedgerFile(${JSON.stringify(ledgerPath)}, { workers: 0 });` +
    `if (!result.ok || result.count !== ${events}) process.exit(1);` +
    'console.log(result.count / ((performance.now() - started) / 1000));';
  const output = execFileSync(
    process.execPath,
    ['--max-old-space-size=32', '--input-type=module', '-e', script],
    {
      cwd: dirname(fileURLToPath(import.meta.url)),
    },
  );
  return Number(output.toString().trim());
}
for (let round = 0; round < (quick ? 2 : 3); round++) {
  for (const [index, side] of sides.entries()) {
    const started = performance.now();
    const result = await verifyLedgerFile(ledgerPath, side.options);
    const seconds = (performance.now() - started) / 1000;
    if (!result.ok || result.count !== events) throw new Error(`verify failed: ${JSON.stringify(result)}`);
    perSide[index]!.push(events / seconds);
  }
  bounded.push(verifyInSmallHeap());
}
const verifyRows = [
  ...sides.map((side, index) => row(`${side.name}, ${format(events)} events`, perSide[index]!, 'events/s')),
  row('verify in a child with a 32 MiB heap', bounded, 'events/s'),
];
report({
  id: 'ledger-verify',
  title: 'ledger: verify throughput',
  what:
    `\`verifyLedgerFile\` over a ${format(events)}-event JSONL ledger (${format(statSync(ledgerPath).size / 2 ** 20)} MiB), ` +
    'streamed in 64 KiB chunks (each line checked on its text — envelope, canonical form, SHA-256, chain — and ' +
    'parsed only when that fast check cannot vouch for it), on this thread (the default) and on 2 worker threads; ' +
    'and in a child process whose heap (32 MiB) is a small fraction of the ' +
    'file, which it could not verify if it held the file.',
  rows: verifyRows,
  figure: `${format(verifyRows[0]!.median)} events/s (2 workers: ${format(verifyRows[1]!.median)})`,
  target: '≥ 300,000 events/s',
  met: quick ? null : verifyRows[0]!.median >= 300_000,
});
