/**
 * One oracle-grove run in a fresh process, for grove.bench.ts and memory.bench.ts (plain JavaScript,
 * so no TypeScript loader sits in the process being measured).
 *
 *   node demo-run.mjs '{"mode":"in-process"|"mcp"|"replay"|"ledger-floor","turns":100,"ledger":FILE,"replay":FILE}'
 *
 * Prints one JSON line: the milliseconds `runDemo` took (for `ledger-floor`: appending the events of
 * the recording one awaited append at a time to a FileStore with the demo's durability (a flush per
 * turn) and clock,
 * the floor under any demo run), the events written, whether a replay was byte-identical, and the
 * process's peak resident set in KiB.
 */
import { rm } from 'node:fs/promises';
import { FileStore, readAll, steppingClock } from '@toolgate/ledger';
import { demoEpoch, runDemo } from 'oracle-grove/dist/demo.js';

const { mode, turns, ledger, replay } = JSON.parse(process.argv[2] ?? '{}');
const recording = mode === 'ledger-floor' ? await readRecording(replay) : undefined;
await rm(ledger, { force: true });

const started = performance.now();
let events;
let identical;
if (recording) {
  // As the demo writes: no fsync per event, one flush at the end of every turn and of the run.
  const store = await FileStore.open(ledger, { clock: steppingClock(demoEpoch), durability: 'none' });
  let lastTurn = 0;
  for (const { id, runId, turn, kind, actor, payload } of recording) {
    if (turn !== lastTurn) await store.flush();
    lastTurn = turn;
    await store.append({ id, runId, turn, kind, actor, payload });
  }
  await store.flush();
  await store.close();
  events = recording.length;
} else {
  const env = mode === 'mcp' ? { ...process.env, MCP_ORACLE: '1' } : {};
  const result = await runDemo({ turns, ledger, env, ...(mode === 'replay' ? { replay } : {}) });
  if (result.transport !== mode) throw new Error(`asked for a ${mode} run, got ${result.transport}`);
  events = result.head.seq + 1;
  identical = result.identical;
}
const milliseconds = performance.now() - started;
process.stdout.write(
  `${JSON.stringify({ milliseconds, events, identical, maxRssKiB: process.resourceUsage().maxRSS })}\n`,
);

async function readRecording(file) {
  const store = await FileStore.open(file, { durability: 'none' });
  try {
    return await readAll(store.read());
  } finally {
    await store.close();
  }
}
