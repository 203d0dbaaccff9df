import { describe, expect, it } from 'vitest';
import { RefreshScheduler } from './refresh-scheduler.js';

describe('RefreshScheduler', () => {
  it('runs one refresh at a time and queues at most one more, however many are asked for', async () => {
    let runs = 0;
    let running = 0;
    let most = 0;
    const release: Array<() => void> = [];
    const scheduler = new RefreshScheduler(async () => {
      runs += 1;
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => release.push(resolve));
      running -= 1;
    });
    for (let index = 0; index < 10_000; index++) scheduler.request();
    const settled = scheduler.settled();
    while (scheduler.pending) {
      await new Promise((resolve) => setImmediate(resolve));
      release.shift()?.();
    }
    await settled;
    expect({ runs, most }).toEqual({ runs: 2, most: 1 });
  });

  it('settles for the refreshes asked before, not for ones asked later', async () => {
    const release: Array<() => void> = [];
    const scheduler = new RefreshScheduler(() => new Promise<void>((resolve) => release.push(resolve)));
    scheduler.request();
    const settled = scheduler.settled();
    scheduler.request(); // queued behind the first, asked after settled() was called
    let done = false;
    void settled.then(() => {
      done = true;
    });
    release.shift()!();
    await settled;
    expect(done).toBe(true);
    expect(scheduler.pending).toBe(true); // the later one still runs
    await new Promise((resolve) => setImmediate(resolve));
    release.shift()!();
    await scheduler.settled();
    expect(scheduler.pending).toBe(false);
  });

  it('keeps going after a refresh fails', async () => {
    let runs = 0;
    const scheduler = new RefreshScheduler(async () => {
      runs += 1;
      if (runs === 1) throw new Error('list failed');
    });
    scheduler.request();
    await scheduler.settled();
    scheduler.request();
    await scheduler.settled();
    expect(runs).toBe(2);
  });
});
