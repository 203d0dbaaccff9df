/**
 * oracle-grove end to end: 100 turns with the oracle in-process, over MCP stdio, and replayed from
 * its ledger with every tool switched off. One fresh process per run (the MCP run spawns its server,
 * which is part of its cost); modes alternate run by run. Target: replay ≥ 20× faster than MCP.
 *
 * The demo writes its ledger with no fsync per event and one flush (fsync) at the end of every turn:
 * the same floor under all three modes. The comparison runs twice, with
 * the ledger on the working disk (as a user runs the demo) and on tmpfs (fsync nearly free), and
 * prints that floor — the recording's events appended one by one to a FileStore — beside them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoMode, type DemoRun, runDemoInChild } from './demo-child.js';
import { format, median, quick, report, row } from './report.js';

const turns = quick ? 10 : 100;
const runs = quick ? 2 : 7;
const minSpeedup = 20;

async function compareModes(place: { id: string; label: string; root: string }): Promise<void> {
  const directory = mkdtempSync(join(place.root, 'toolgate-grove-bench-'));
  try {
    const recording = join(directory, 'recording.jsonl');
    const recorded = await runDemoInChild('in-process', { turns, ledger: recording });
    const bytes = readFileSync(recording);
    const runsOf: Record<DemoMode, DemoRun[]> = { mcp: [], replay: [], 'in-process': [], 'ledger-floor': [] };
    for (let round = 0; round < runs; round++) {
      for (const mode of ['mcp', 'replay', 'in-process', 'ledger-floor'] as const) {
        const ledger = join(directory, `${mode}.jsonl`);
        const run = await runDemoInChild(mode, { turns, ledger, replay: recording });
        if (run.events !== recorded.events || !readFileSync(ledger).equals(bytes))
          throw new Error(`the ${mode} run did not write the recorded ledger byte for byte`);
        runsOf[mode].push(run);
      }
    }
    const inChild = (mode: DemoMode) => runsOf[mode].map((run) => run.milliseconds);
    const wall = (mode: DemoMode) => runsOf[mode].map((run) => run.wall);
    const speedup = median(inChild('mcp')) / median(inChild('replay'));
    const wallSpeedup = median(wall('mcp')) / median(wall('replay'));
    report({
      id: `grove-${turns}-turns-${place.id}`,
      title: `oracle-grove ${turns} turns: in-process, over MCP stdio, replayed (ledger on ${place.label})`,
      what:
        `\`runDemo({ turns: ${turns} })\` in a fresh process per run, ${runs} runs per mode, modes alternating; ` +
        `${recorded.events} events written to a JSONL ledger on ${place.label} with the demo's durability ` +
        '(no fsync per event, one flush per turn). MCP: `MCP_ORACLE=1`, the oracle in a `toolgate-mcp` child over ' +
        'stdio, spawned by the run. Replay: the in-process recording served back with every tool switched ' +
        'off; every run must write the recording byte for byte. Ledger floor: the same events appended ' +
        'one by one to a FileStore with the same durability, nothing else. Whole process: spawn to exit.',
      rows: [
        row('over MCP stdio: runDemo', inChild('mcp'), 'ms'),
        row('replayed from its ledger: runDemo', inChild('replay'), 'ms'),
        row('in-process: runDemo', inChild('in-process'), 'ms'),
        row('ledger floor: append the same events', inChild('ledger-floor'), 'ms'),
        row('over MCP stdio: whole process', wall('mcp'), 'ms'),
        row('replayed: whole process', wall('replay'), 'ms'),
      ],
      figure:
        `replay ${format(speedup)}× faster than MCP (whole process ${format(wallSpeedup)}×; ` +
        `ledger floor ${format(median(inChild('ledger-floor')) / median(inChild('replay')))}× of replay)`,
      target: `≥ ${minSpeedup}×`,
      met: quick ? null : speedup >= minSpeedup,
    });
    // Issue 27: a replay imports none of the MCP client, the SDK or ajv, so as a whole process it
    // costs at most 0.6× the live MCP run.
    const wallRatio = median(wall('replay')) / median(wall('mcp'));
    report({
      id: `grove-${turns}-turns-${place.id}-process`,
      title: `oracle-grove ${turns} turns as a whole process: replayed against over MCP stdio (ledger on ${place.label})`,
      what:
        'The same runs as above, timed from spawn to exit by the parent: a replay loads no MCP client, SDK, ' +
        'ajv or built-in tools, so start-up is not paid for what it never uses.',
      rows: [
        row('over MCP stdio: whole process', wall('mcp'), 'ms'),
        row('replayed: whole process', wall('replay'), 'ms'),
        row('in-process: whole process', wall('in-process'), 'ms'),
      ],
      figure: `ratio ${format(wallRatio)}× (in-process ${format(median(wall('in-process')) / median(wall('mcp')))}×)`,
      target: '≤ 0.6×',
      met: quick ? null : wallRatio <= 0.6,
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const tmpfs = existsSync('/dev/shm');
// A quick run only checks that every mode still runs: one place is enough.
if (!quick || !tmpfs) await compareModes({ id: 'disk', label: `disk (${tmpdir()})`, root: tmpdir() });
if (tmpfs) await compareModes({ id: 'tmpfs', label: 'tmpfs (/dev/shm)', root: '/dev/shm' });
