import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchJob } from './search-job.js';
import { runningSearchThreads, searchOffThread } from './search-thread.js';

// A pattern that backtracks for days over forty `a`s: only a deadline ends it.
const runaway: SearchJob = {
  kind: 'texts',
  files: [['notes.txt', `${'a'.repeat(40)}!\n`]],
  pattern: '(a+)+$',
  options: {},
};

afterEach(() => {
  vi.useRealTimers();
});

describe('a cold search thread', () => {
  it("counts the thread's start-up against the search's deadline", async () => {
    // This file's module holds no idle thread, so the search starts a new one. The clock the deadline
    // is read against is frozen: a whole budget passes on it before the new thread can say it is ready.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    let outcome: unknown;
    const search = searchOffThread(runaway, 1000).then(
      () => 'answered',
      (error: unknown) => {
        outcome = error;
      },
    );
    await vi.advanceTimersByTimeAsync(1000);
    // Counted from the call, the deadline has passed whether the thread was starting or searching:
    // the search has failed with TIMEOUT by now. (Had start-up not counted, the budget would only
    // begin once the thread said it was ready, and nothing would have settled yet.)
    expect(outcome).toMatchObject({ code: 'TIMEOUT' });
    expect((outcome as Error).message).toMatch(/deadline of 1000 ms/);
    vi.useRealTimers();
    await search;
    await vi.waitFor(() => expect(runningSearchThreads()).toBe(0), { timeout: 60_000 });
  }, 120_000);
});
