/**
 * `pnpm bench [--quick] [filter]`: runs every `src/*.bench.ts` in its own process (so one
 * comparison's heap and JIT state never colour another's), then writes BENCHMARKS.md from the
 * results they saved (a quick or filtered run writes bench/results/BENCHMARKS.<quick|filter>.md
 * instead, leaving the real report alone). A full run runs the files one at a time, so no two compete for the cores; a
 * quick run is a smoke run whose figures are not judged, so it runs two at a time (each file's output
 * printed whole when it ends) to finish within a minute.
 *
 * Each file is announced as it starts, with how long it took in the last full run (read from
 * BENCHMARKS.md); on a terminal a quick run also keeps one status line of what is running. SIGINT or
 * SIGTERM stops every running file and everything it started (see process-tree.ts) before the
 * runner exits. `TOOLGATE_BENCH_DIR` points the runner at another folder of `*.bench.ts` files (its
 * tests use it).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopTree } from './process-tree.js';
import { type Comparison, format as fmt } from './report.js';

const here = process.env.TOOLGATE_BENCH_DIR ?? dirname(fileURLToPath(import.meta.url));
const resultsDir = join(here, '..', 'results');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const filter = args.find((arg) => !arg.startsWith('--'));

const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts') && (!filter || file.includes(filter)))
  .sort();
rmSync(resultsDir, { recursive: true, force: true });
const failed: string[] = [];
const seconds: [string, number][] = [];
const suiteStarted = performance.now();
const reportFile = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'BENCHMARKS.md');
const lastRun = lastFullRun();
const running = new Map<string, { pid: number; started: number }>();
let startedCount = 0;

/** Seconds each file took in the last full run, from BENCHMARKS.md's "The suite took" line. */
function lastFullRun(): Map<string, number> {
  const text = existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : '';
  const line = text.match(/^The suite took \d+ s \((.*)\)\.$/m)?.[1] ?? '';
  return new Map(
    [...line.matchAll(/([\w-]+) (\d+) s/g)].map(([, name, taken]) => [`${name}.bench.ts`, Number(taken)]),
  );
}

/** "(2/7, about 51 s in the last full run)", or without the figure when there is none. */
function startLine(file: string): string {
  const expected = lastRun.get(file);
  const figure =
    expected === undefined ? 'no figure from a full run yet' : `about ${expected} s in the last full run`;
  return `(${startedCount}/${files.length}, ${figure}${quick ? '; quick runs are shorter' : ''})`;
}

/** On a terminal, the quick run's one status line: which files run, for how long. */
function status(clear = false): void {
  if (!quick || !process.stderr.isTTY) return;
  const now = performance.now();
  const parts = [...running].map(([file, { started }]) => `${file} ${Math.round((now - started) / 1000)} s`);
  process.stderr.write(`\r\u001b[K${clear || parts.length === 0 ? '' : `running: ${parts.join(', ')}`}`);
}
const ticker = setInterval(() => status(), 1000);
ticker.unref();

let stopping = false;
for (const name of ['SIGINT', 'SIGTERM'] as const) {
  process.once(name, () => {
    stopping = true;
    status(true);
    const pending = [...running];
    console.log(
      `\n${name}: stopping ${pending.map(([file]) => file).join(', ') || 'nothing'} and what they started`,
    );
    void Promise.all(pending.map(([, { pid }]) => stopTree(pid))).then(() => {
      process.exit(name === 'SIGINT' ? 130 : 143);
    });
  });
}

/** Runs one bench file in its own process; a quick run buffers its output to print it whole. */
function runFile(file: string): Promise<void> {
  const started = performance.now();
  startedCount += 1;
  status(true);
  console.log(quick ? `--- starting ${file} ${startLine(file)}` : `\n=== ${file} ${startLine(file)}`);
  // its own process group, so that stopping it reaches what it started
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, file)], {
    stdio: quick ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, BENCH_QUICK: quick ? '1' : '0' },
    detached: true,
  });
  if (child.pid !== undefined) running.set(file, { pid: child.pid, started });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve) => {
    child.once('close', (code) => {
      running.delete(file);
      if (stopping) return; // the signal handler exits once everything is stopped
      seconds.push([file, (performance.now() - started) / 1000]);
      status(true);
      if (quick) process.stdout.write(`\n=== ${file}\n${output}`);
      if (code !== 0) failed.push(file);
      resolve();
    });
  });
}

const queue = [...files];
await Promise.all(
  Array.from({ length: quick ? 2 : 1 }, async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await runFile(file);
  }),
);
seconds.sort(([a], [b]) => a.localeCompare(b));
const suiteSeconds = (performance.now() - suiteStarted) / 1000;

mkdirSync(resultsDir, { recursive: true });
const results: Comparison[] = readdirSync(resultsDir, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
  .map((entry) => JSON.parse(readFileSync(join(resultsDir, entry.name), 'utf8')) as Comparison)
  .sort((a, b) => a.id.localeCompare(b.id));

const lines = [
  '# Benchmarks',
  '',
  `Generated by \`pnpm bench${quick ? ' --quick' : ''}\` on ${new Date().toISOString().slice(0, 10)}: ` +
    `${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}), ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}.`,
  '',
  'Every verdict is on a ratio measured in the same run, sides alternating round by round; absolute',
  'times are reported but vary with the machine. Medians over rounds, with the lowest and highest',
  'round median as the spread.',
  '',
  `The suite took ${Math.round(suiteSeconds)} s (${seconds.map(([file, taken]) => `${file.replace('.bench.ts', '')} ${Math.round(taken)} s`).join(', ')}).`,
  ...(quick ? ['', '**Quick mode: too few rounds to judge; rerun `pnpm bench` for real figures.**'] : []),
  '',
  '| comparison | figure | target | verdict |',
  '|---|---|---|---|',
  ...results.map(
    (result) =>
      `| [${result.title}](#${result.id}) | ${result.figure} | ${result.target || '—'} | ${verdict(result)} |`,
  ),
  '',
];
for (const result of results) {
  lines.push(`## ${result.title}`, '', `<a id="${result.id}"></a>${result.what}`, '');
  lines.push('| side | median | spread (round medians) |', '|---|---|---|');
  for (const row of result.rows) {
    lines.push(
      `| ${row.name} | ${fmt(row.median)} ${row.unit} | ${fmt(row.low)} – ${fmt(row.high)} ${row.unit} |`,
    );
  }
  lines.push(
    '',
    `**${result.figure}**${result.target ? `, target ${result.target}: ${verdict(result)}` : ''}`,
    '',
  );
}
if (failed.length) lines.push(`Benchmarks that failed to run: ${failed.join(', ')}`, '');
// Only a full, unfiltered run writes BENCHMARKS.md; a quick (smoke) or filtered run reports beside
// the results, never over the real report.
const reportPath =
  quick || filter
    ? join(resultsDir, `BENCHMARKS.${quick ? 'quick' : filter}.md`)
    : join(here, '..', '..', 'BENCHMARKS.md');
writeFileSync(reportPath, lines.join('\n'));
for (const [file, taken] of seconds) console.log(`${file.padEnd(24)} ${taken.toFixed(1)} s`);
console.log(
  `\nwrote ${reportPath}: ${results.length} comparisons in ${suiteSeconds.toFixed(1)} s` +
    `${failed.length ? `, ${failed.length} failed` : ''}`,
);
if (failed.length) process.exitCode = 1;

function verdict(result: Comparison): string {
  return result.met === null ? 'printed' : result.met ? 'met' : '**not met**';
}
