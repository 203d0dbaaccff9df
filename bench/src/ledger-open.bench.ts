/**
 * Opening a ledger for appending, in a fresh process (as a gateway or an agent restarting on its
 * ledger): `FileStore.open` of a 1,000,000-event ledger against a 10,000-event one, open time and
 * peak RSS. Open reads the tail, not the file: the large one should cost what the small one does
 * (target ≤ 2× the time, ≤ 1.2× the RSS). Printed beside: `check: 'chain'` (the whole chain verified
 * first, as open did before), which grows with the ledger. Quick mode uses 100,000 events.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, steppingClock } from '@toolgate/ledger';
import { format, median, quick, report, row } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const peakRss = join(here, 'children', 'peak-rss.mjs');
const opener = join(here, 'children', 'open-ledger.mjs');
const directory = mkdtempSync(join(tmpdir(), 'toolgate-open-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));

const smallEvents = 10_000;
const largeEvents = quick ? 100_000 : 1_000_000;
const parameters = { seed: 'moss on the north stones', depth: 3 };

/** A ledger of `events` events shaped like the demo's, written with no fsync. */
async function writeLedger(path: string, events: number): Promise<void> {
  const store = await FileStore.open(path, { durability: 'none', clock: steppingClock() });
  const kinds = ['tool.called', 'policy.decided', 'tool.returned'];
  for (let seq = 0; seq < events; seq++) {
    await store.append({
      runId: 'bench',
      turn: Math.floor(seq / 3),
      kind: kinds[seq % 3]!,
      actor: 'fortune-teller',
      payload: { callId: `call-${Math.floor(seq / 3)}`, tool: 'oracle', parameters },
    });
  }
  await store.close();
}

/** Opens the ledger in a fresh process; its open time on stdout, its peak RSS (KiB) on fd 3. */
function openInChild(path: string, check?: string): Promise<{ milliseconds: number; rssMiB: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', peakRss, opener, path, ...(check ? [check] : [])], {
      cwd: here,
      stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
    });
    const texts = ['', ''];
    child.stdout!.on('data', (chunk: Buffer) => {
      texts[0] += chunk.toString('utf8');
    });
    child.stdio[3]!.on('data', (chunk: Buffer) => {
      texts[1] += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`opening ${path} exited ${code}`));
      resolve({ milliseconds: Number(texts[0]!.trim()), rssMiB: Number(texts[1]!.trim()) / 1024 });
    });
  });
}

const small = join(directory, 'small.jsonl');
const large = join(directory, 'large.jsonl');
await writeLedger(small, smallEvents);
await writeLedger(large, largeEvents);
const sides = [
  { name: `open ${format(smallEvents)} events`, path: small },
  { name: `open ${format(largeEvents)} events`, path: large },
  { name: `open ${format(largeEvents)} events, check: 'chain'`, path: large, check: 'chain' },
];
const times = sides.map(() => [] as number[]);
const rss = sides.map(() => [] as number[]);
for (let round = 0; round < (quick ? 2 : 5); round++) {
  for (const [index, side] of sides.entries()) {
    const opened = await openInChild(side.path, side.check);
    times[index]!.push(opened.milliseconds);
    rss[index]!.push(opened.rssMiB);
  }
}
const timeRatio = median(times[1]!) / median(times[0]!);
const rssRatio = median(rss[1]!) / median(rss[0]!);
report({
  id: 'ledger-open',
  title: `ledger: FileStore.open of ${format(largeEvents)} events vs ${format(smallEvents)}`,
  what:
    `\`FileStore.open\` in a fresh Node process (then one append and close), on ledgers of ${format(smallEvents)} ` +
    `(${format(statSync(small).size / 2 ** 20)} MiB) and ${format(largeEvents)} events ` +
    `(${format(statSync(large).size / 2 ** 20)} MiB): the time of the open call and the process's peak RSS. ` +
    "Open verifies the tail; printed beside: `check: 'chain'`, the whole chain verified first (what open did before). " +
    'Sides alternate round by round.',
  rows: [
    ...sides.map((side, index) => row(`${side.name}: open time`, times[index]!, 'ms')),
    ...sides.map((side, index) => row(`${side.name}: peak RSS`, rss[index]!, 'MiB')),
  ],
  figure: `${format(timeRatio)}× the time, ${format(rssRatio)}× the peak RSS`,
  target: '≤ 2× the time, ≤ 1.2× the RSS',
  met: quick ? null : timeRatio <= 2 && rssRatio <= 1.2,
});
