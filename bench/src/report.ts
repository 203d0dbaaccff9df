import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True under `pnpm bench --quick` (BENCH_QUICK=1): fewer rounds, shorter runs; figures not judged. */
export const quick = process.env.BENCH_QUICK === '1';

/** One side of a comparison: its median and spread over rounds, in `unit`. */
export interface Row {
  name: string;
  median: number;
  /** Lowest and highest round medians. */
  low: number;
  high: number;
  unit: string;
}

/** A comparison as it lands in BENCHMARKS.md. */
export interface Comparison {
  id: string;
  title: string;
  /** What ran, in a sentence. */
  what: string;
  rows: Row[];
  /** The figure the verdict is on, e.g. `1.42×` or `312,000 events/s`. */
  figure: string;
  /** The target, e.g. `≤ 2.0×`; empty when the figure is only printed. */
  target: string;
  met: boolean | null;
}

const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** Saves a comparison for the report and prints it. */
export function report(measured: Comparison): Comparison {
  const comparison = quick ? { ...measured, met: null } : measured; // a smoke run judges nothing
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, `${comparison.id}.json`), `${JSON.stringify(comparison, null, 2)}\n`);
  const verdict = comparison.met === null ? 'printed' : comparison.met ? 'met' : 'NOT MET';
  console.log(`\n${comparison.title}\n  ${comparison.what}`);
  for (const row of comparison.rows) {
    console.log(
      `  ${row.name.padEnd(48)} median ${format(row.median)} ${row.unit}  (rounds ${format(row.low)}–${format(row.high)})`,
    );
  }
  console.log(
    `  => ${comparison.figure}${comparison.target ? `  target ${comparison.target}` : ''}  ${verdict}`,
  );
  return comparison;
}

/** The median of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A row from per-round figures. */
export function row(name: string, rounds: readonly number[], unit: string): Row {
  return { name, median: median(rounds), low: Math.min(...rounds), high: Math.max(...rounds), unit };
}

/** A number with three significant figures and thousands separators. */
export function format(value: number): string {
  if (value === 0) return '0';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(3)).toString();
}
