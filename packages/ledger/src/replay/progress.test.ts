import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../chain/event.js';
import { ReplayProgress } from './progress.js';
import type { RecordedCall } from './recording.js';

/** Recorded calls with these keys, at seq 0, 1, 2 … (only key and seq matter to the progress). */
function calls(...keys: string[]): RecordedCall[] {
  return keys.map((key, seq) => ({
    agent: 'teller',
    tool: key,
    parameters: {},
    key,
    called: { seq } as LedgerEvent,
  }));
}

describe('ReplayProgress', () => {
  it('finds the next recorded call of a key past the ones of that key already made', () => {
    const recorded = calls('a', 'b', 'a', 'a');
    const progress = new ReplayProgress(recorded);
    expect(progress.upcoming('a')).toBe(recorded[0]);
    progress.take(recorded[0]!);
    expect(progress.upcoming('a')).toBe(recorded[2]);
    progress.take(recorded[2]!);
    expect(progress.upcoming('a')).toBe(recorded[3]);
    progress.take(recorded[3]!);
    expect(progress.upcoming('a')).toBeUndefined();
    expect(progress.upcoming('c')).toBeUndefined();
    expect(progress.occurrences('a')).toBe(3);
    expect(progress.made).toBe(3);
  });

  it('walks the recording in order for strict mode', () => {
    const recorded = calls('a', 'b', 'a');
    const progress = new ReplayProgress(recorded);
    for (const call of recorded) {
      expect(progress.inOrder).toBe(call);
      progress.take(call);
    }
    expect(progress.inOrder).toBeUndefined();
    expect(progress.firstUnmade()).toBeUndefined();
  });

  it('names the first recorded call not made, counting occurrences of each key', () => {
    const recorded = calls('a', 'b', 'a', 'b');
    const progress = new ReplayProgress(recorded);
    progress.take(recorded[1]!);
    progress.take(recorded[0]!);
    expect(progress.firstUnmade()).toBe(recorded[2]);
    progress.take(recorded[2]!);
    expect(progress.firstUnmade()).toBe(recorded[3]);
  });
});
