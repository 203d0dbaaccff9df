import { Bench } from 'tinybench';
import { type Comparison, format, quick, report, row } from './report.js';

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
}

/**
 * Measures the sides in alternating rounds (anchor, subject, anchor, …) so drift on a noisy
 * machine hits both alike, and judges the ratio of their medians.
 */
export async function compareLatency(options: LatencyComparison): Promise<Comparison> {
  const sides = [options.anchor, options.subject, ...(options.others ?? [])];
  const rounds = quick ? 3 : 7;
  const time = quick ? 100 : 400;
  const perSide = sides.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [index, side] of sides.entries()) {
      const bench = new Bench({ time, warmupTime: 50 });
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
  return report({
    id: options.id,
    title: options.title,
    what: options.what,
    rows,
    figure: judged
      ? `${format(speedup)}× faster`
      : `ratio ${format(ratio)}×${others.length ? ` (${others.join(', ')})` : ''}`,
    target: judged
      ? `≥ ${options.minSpeedup}×`
      : options.maxRatio !== undefined
        ? `≤ ${options.maxRatio}×`
        : '',
    met: judged
      ? speedup >= options.minSpeedup!
      : options.maxRatio !== undefined
        ? ratio <= options.maxRatio
        : null,
  });
}
