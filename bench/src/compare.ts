import { Bench } from 'tinybench';
import { type Comparison, format, quick, type Row, report, row } from './report.js';

/** One side of a latency comparison. */
export interface Side {
  name: string;
  fn: () => unknown;
}

/** What {@link compareLatency} takes. */
export interface LatencyComparison {
  id: string;
  title: string;
  what: string;
  /** The thing a user would otherwise pick; ratios are `subject / anchor`. */
  anchor: Side;
  /** The side the target is on. */
  subject: Side;
  /** Further sides, printed with their ratio to the anchor. */
  others?: Side[];
  /** The largest acceptable ratio, or undefined to only print it. */
  maxRatio?: number;
  /** Set when a larger ratio is better (e.g. a speed-up): the smallest acceptable ratio `anchor / subject`. */
  minSpeedup?: number;
  /** Appended to the figure, given the rows (e.g. the microseconds the subject adds). */
  note?: (rows: readonly Row[]) => string;
}

/**
 * Rounds, and how long each side runs in a round: at least `time` ms and at least `iterations`
 * calls. The minimums on calls are low so a side that takes a second (a spawned `grep`) is bounded by
 * the time, not by tinybench's default of 64 calls plus 16 warm-up calls; a fast side still runs
 * thousands of calls a round. Quick mode (a smoke run, not judged) does the least that still runs
 * every side: two rounds, one call each.
 */
const settings = quick
  ? { rounds: 2, bench: { time: 50, iterations: 1, warmupTime: 20, warmupIterations: 0 } }
  : { rounds: 7, bench: { time: 400, iterations: 10, warmupTime: 50, warmupIterations: 2 } };

/**
 * Measures the sides in alternating rounds (anchor, subject, anchor, …) so drift on a noisy
 * machine hits both alike, and judges the ratio of their medians.
 */
export async function compareLatency(options: LatencyComparison): Promise<Comparison> {
  const sides = [options.anchor, options.subject, ...(options.others ?? [])];
  const perSide = sides.map(() => [] as number[]);
  for (let round = 0; round < settings.rounds; round++) {
    for (const [index, side] of sides.entries()) {
      const bench = new Bench(settings.bench);
      bench.add(side.name, side.fn);
      await bench.run();
      const result = bench.tasks[0]!.result;
      if (!('latency' in result))
        throw new Error(`benchmark "${side.name}" failed: ${JSON.stringify(result)}`);
      perSide[index]!.push(result.latency.p50 * 1000);
    }
  }
  const rows = sides.map((side, index) => row(side.name, perSide[index]!, 'µs'));
  const [anchor, subject] = rows as [(typeof rows)[0], (typeof rows)[0]];
  const ratio = subject.median / anchor.median;
  const speedup = anchor.median / subject.median;
  const others = rows.slice(2).map((other) => `${other.name} ${format(other.median / anchor.median)}×`);
  const judged = options.minSpeedup !== undefined;
  const note = options.note ? `; ${options.note(rows)}` : '';
  return report({
    id: options.id,
    title: options.title,
    what: options.what,
    rows,
    figure:
      (judged
        ? `${format(speedup)}× faster`
        : `ratio ${format(ratio)}×${others.length ? ` (${others.join(', ')})` : ''}`) + note,
    target: judged
      ? `≥ ${options.minSpeedup}×`
      : options.maxRatio !== undefined
        ? `≤ ${options.maxRatio}×`
        : '',
    met: quick
      ? null
      : judged
        ? speedup >= options.minSpeedup!
        : options.maxRatio !== undefined
          ? ratio <= options.maxRatio
          : null,
  });
}
