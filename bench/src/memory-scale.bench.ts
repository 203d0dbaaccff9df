/**
 * Memory that stays flat as the calls add up (issue 27, item 3): the heap retained per recorded call
 * after 10,000, 100,000 and 1,000,000 calls through a ToolGate and a LedgerRecorder into a
 * FileStore, in one process (the calls a long-running gateway records). Flat means the bytes a call
 * fall as the calls grow (a fixed cost spread thinner) and the calls after the first mark add at
 * most 50 bytes a call (memory-per-call's bound). The MemoryStore keeps every event
 * by its nature, so it is measured to 100,000 only and printed. Quick mode: 2,000 and 20,000.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, quick, type Row, report } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'toolgate-memory-scale-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));

interface Mark {
  calls: number;
  perCall: number;
  heapUsed: number;
}

function heapAtScale(store: 'file' | 'memory', marks: number[]): Promise<Mark[]> {
  const path = join(directory, `calls-${store}.jsonl`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', join(here, 'children', 'heap-at-scale.mjs'), JSON.stringify({ store, path, marks })],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => {
      rmSync(path, { force: true });
      if (code !== 0) return reject(new Error(`heap-at-scale.mjs (${store}) exited ${code}`));
      resolve((JSON.parse(out) as { marks: Mark[] }).marks);
    });
  });
}

const fileMarks = quick ? [2_000, 20_000] : [10_000, 100_000, 1_000_000];
const memoryMarks = quick ? [2_000, 20_000] : [10_000, 100_000];
const file = await heapAtScale('file', fileMarks);
const memory = await heapAtScale('memory', memoryMarks);
const one = (name: string, mark: Mark): Row => ({
  name: `${name}: ${mark.calls.toLocaleString('en-US')} calls`,
  median: mark.perCall,
  low: mark.perCall,
  high: mark.perCall,
  unit: 'bytes a call',
});
const first = file[0]!;
const last = file.at(-1)!;
// flat: what the calls after the first mark added, per call (a leak of L bytes a call shows as L
// here, however the fixed costs of the first mark spread), within the 50 bytes of memory-per-call
const added = (last.heapUsed - first.heapUsed) / Math.max(1, last.calls - first.calls);
const flat = added <= 50;
report({
  id: 'memory-scale',
  title: 'memory: heap retained per recorded call at 10,000, 100,000 and 1,000,000 calls',
  what:
    'One process, calls through a ToolGate (agent handle, rule policy, cap) and a LedgerRecorder, ' +
    'after a warm-up of 5,000; the heap after full collections at each mark, counted from the warm-up. ' +
    'FileStore (durability none: memory, not the disk); the MemoryStore keeps every event, by its nature.',
  rows: [...file.map((mark) => one('FileStore', mark)), ...memory.map((mark) => one('MemoryStore', mark))],
  figure:
    `FileStore ${file.map((mark) => format(mark.perCall)).join(' → ')} bytes a call, ` +
    `${format(added)} a call from the first mark to the last ` +
    `(heap ${format(first.heapUsed / 2 ** 20)} → ${format(last.heapUsed / 2 ** 20)} MiB); ` +
    `MemoryStore ${memory.map((mark) => format(mark.perCall)).join(' → ')} (its events)`,
  target: 'FileStore ≤ 50 bytes a call added from the first mark to the last',
  met: quick ? null : flat,
});
