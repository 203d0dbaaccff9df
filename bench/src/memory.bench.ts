/**
 * Memory, as peak resident set of a fresh process:
 * 1. the oracle-grove demo (oracle in-process) at 10 and 1,000 turns;
 * 2. `toolgate-ledger verify` on a 1,000,000-event ledger against a 10,000-event one. Verify must
 *    stream: its memory stays flat as the ledger grows (target: the large one ≤ 1.3× the small one).
 * Quick mode shrinks the large sizes to 100 turns and 100,000 events.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore } from '@toolgate/ledger';
import { runDemoInChild } from './demo-child.js';
import { format, median, quick, report, row } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const peakRss = join(here, 'children', 'peak-rss.mjs');
const directory = mkdtempSync(join(tmpdir(), 'toolgate-memory-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
const mib = (kib: number) => kib / 1024;

// 1. The demo ------------------------------------------------------------------------------------------
const fewTurns = 10;
const manyTurns = quick ? 100 : 1_000;
const demoRuns = quick ? 1 : 3;
// The ledger goes to tmpfs where there is one: memory does not depend on fsync, and 5,000 fsyncs
// would only make the run slower.
const demoDirectory = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/toolgate-memory-bench-') : directory;
process.on('exit', () => rmSync(demoDirectory, { recursive: true, force: true }));
const demoRss = { few: [] as number[], many: [] as number[] };
const demoEvents = { few: 0, many: 0 };
for (let run = 0; run < demoRuns; run++) {
  for (const [size, turns] of [
    ['few', fewTurns],
    ['many', manyTurns],
  ] as const) {
    const result = await runDemoInChild('in-process', {
      turns,
      ledger: join(demoDirectory, `${size}.jsonl`),
    });
    demoRss[size].push(mib(result.maxRssKiB));
    demoEvents[size] = result.events;
  }
}
const demoGrowth = median(demoRss.many) / median(demoRss.few);
report({
  id: 'memory-demo',
  title: `memory: oracle-grove at ${fewTurns} and ${format(manyTurns)} turns`,
  what:
    `Peak RSS (\`process.resourceUsage().maxRSS\`) of a fresh Node process that runs \`runDemo\` once with the ` +
    `oracle in-process: ${fewTurns} turns (${demoEvents.few} events) vs ${format(manyTurns)} turns ` +
    `(${format(demoEvents.many)} events); ${demoRuns} run(s) each, sizes alternating.`,
  rows: [
    row(`${fewTurns} turns`, demoRss.few, 'MiB'),
    row(`${format(manyTurns)} turns`, demoRss.many, 'MiB'),
  ],
  figure:
    `${format(manyTurns)} turns ${format(demoGrowth)}× the RSS of ${fewTurns} turns ` +
    `(+${format(((median(demoRss.many) - median(demoRss.few)) * 1024) / (manyTurns - fewTurns))} KiB a turn)`,
  target: '',
  met: null,
});

// 2. verify --------------------------------------------------------------------------------------------
// The middle size (full runs only) separates growth with the ledger from a step at the size where
// verify starts worker threads (8 MiB).
const sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
const smallEvents = sizes[0]!;
const largeEvents = sizes.at(-1)!;
const parameters = { seed: 'moss on the north stones', depth: 3 };

/** Writes a ledger of `events` events shaped like the demo's, with the FileStore and no fsync. */
async function writeLedger(file: string, events: number): Promise<void> {
  const store = await FileStore.open(file, { durability: 'none' });
  const kinds = ['tool.called', 'policy.decided', 'tool.returned'];
  for (let seq = 0; seq < events; seq += 1_000) {
    const appends: Promise<unknown>[] = [];
    for (let index = seq; index < Math.min(seq + 1_000, events); index++) {
      appends.push(
        store.append({
          runId: 'bench',
          turn: Math.floor(index / 3),
          kind: kinds[index % 3]!,
          actor: 'fortune-teller',
          payload: { callId: `call-${Math.floor(index / 3)}`, tool: 'oracle', parameters },
        }),
      );
    }
    await Promise.all(appends);
  }
  await store.close();
}

const ledgerPackage = createRequire(import.meta.url).resolve('@toolgate/ledger-cli/package.json');
const ledgerCli = join(dirname(ledgerPackage), 'dist', 'cli.js');

interface Verified {
  rssMiB: number;
  milliseconds: number;
  /** Why the run does not count: the command did not report the ledger verified. */
  failure?: string;
}

/** Runs `toolgate-ledger verify FILE` in a fresh process; its peak RSS comes back on fd 3. */
function verifyInChild(file: string, events: number, nodeFlags: string[] = []): Promise<Verified> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const running = spawn(process.execPath, [...nodeFlags, '--import', peakRss, ledgerCli, 'verify', file], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const texts = ['', '', ''];
    for (const [index, stream] of [running.stdout, running.stderr, running.stdio[3]].entries()) {
      stream!.on('data', (chunk: Buffer) => {
        texts[index] += chunk.toString('utf8');
      });
    }
    running.once('error', reject);
    running.once('close', (code) => {
      const [out, err, rss] = texts as [string, string, string];
      const verified = code === 0 && out.includes(`ok, ${events} records verified`);
      resolve({
        rssMiB: mib(Number(rss.trim())),
        milliseconds: performance.now() - started,
        ...(verified
          ? {}
          : {
              failure: `exited ${code} ${out || err ? `saying "${(out + err).trim()}"` : 'printing nothing'}`,
            }),
      });
    });
  });
}

const ledgers = sizes.map((events) => ({ events, file: join(directory, `${events}.jsonl`) }));
for (const { events, file } of ledgers) await writeLedger(file, events);
const verifyRss = sizes.map(() => [] as number[]);
const verifyTime = sizes.map(() => [] as number[]);
const failures = new Set<string>();
const cappedHeap = 24;
const cappedRss: number[] = [];
const largest = ledgers.at(-1)!.file;
for (let run = 0; run < (quick ? 2 : 3); run++) {
  for (const [index, { events, file }] of ledgers.entries()) {
    const result = await verifyInChild(file, events);
    if (result.failure) {
      failures.add(`verify of ${format(events)} events ${result.failure}`);
      continue;
    }
    verifyRss[index]!.push(result.rssMiB);
    verifyTime[index]!.push(result.milliseconds);
  }
  // The largest again with V8's old space capped: what the heap's growth policy adds, not what verify holds.
  const capped = await verifyInChild(largest, largeEvents, [`--max-old-space-size=${cappedHeap}`]);
  if (capped.failure)
    failures.add(`verify of ${format(largeEvents)} events with a capped heap ${capped.failure}`);
  else cappedRss.push(capped.rssMiB);
}
if (failures.size) console.error(`toolgate-ledger verify failed:\n  ${[...failures].join('\n  ')}`);
const rssOf = (index: number) => median(verifyRss.at(index)!);
const flatness = rssOf(-1) / rssOf(0);
const mibOf = (file: string) => `${format(statSync(file).size / 2 ** 20)} MiB`;
report({
  id: 'memory-verify',
  title: `memory: toolgate-ledger verify on ${format(largeEvents)} events vs ${format(smallEvents)}`,
  what:
    `Peak RSS of \`toolgate-ledger verify FILE\` (the package's CLI in a fresh Node process, \`maxRSS\` read at ` +
    `exit) on ledgers written by the FileStore with durability \`none\`: ` +
    `${ledgers.map(({ events, file }) => `${format(events)} events (${mibOf(file)})`).join(', ')}; sizes ` +
    'alternating run by run. Streaming means the large ledger costs about what the small one does. ' +
    `Printed beside: the largest verified with \`--max-old-space-size=${cappedHeap}\` (it could not hold the ` +
    'file; what is left above the small run is what V8 lets the heap grow to by default), and whole-process times.',
  rows: [
    ...ledgers.map(
      ({ events }, index) => [`verify ${format(events)} events: peak RSS`, verifyRss[index]!, 'MiB'] as const,
    ),
    [
      `verify ${format(largeEvents)} events, old space capped at ${cappedHeap} MiB: peak RSS`,
      cappedRss,
      'MiB',
    ] as const,
    ...ledgers.map(
      ({ events }, index) =>
        [`verify ${format(events)} events: whole process`, verifyTime[index]!, 'ms'] as const,
    ),
  ]
    .filter(([, rounds]) => rounds.length > 0)
    .map(([name, rounds, unit]) => row(name, rounds, unit)),
  figure: failures.size
    ? `not measured: ${[...failures].join('; ')}`
    : `${format(largeEvents)} events: ${format(flatness)}× the peak RSS of ${format(smallEvents)}` +
      (sizes.length > 2 ? ` (${format(rssOf(-1) / rssOf(-2))}× that of ${format(sizes.at(-2)!)})` : '') +
      `; with a ${cappedHeap} MiB old space ${format(median(cappedRss) / rssOf(0))}×`,
  target: '≤ 1.3×',
  met: failures.size ? false : quick ? null : flatness <= 1.3,
});
