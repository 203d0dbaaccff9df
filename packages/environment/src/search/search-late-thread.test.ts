import { describe, expect, it, vi } from 'vitest';
import type { SearchJob } from './search-job.js';
import { idleSearchThreads, searchOffThread } from './search-thread.js';

// This file stands alone so that its module holds exactly one search thread: a thread left loading by
// another test would join the idle ones beside it, and the count this test watches would skip past 1.

// A pattern that backtracks for days over forty `a`s: only a deadline ends it.
const runaway: SearchJob = {
  kind: 'texts',
  files: [['notes.txt', `${'a'.repeat(40)}!\n`]],
  pattern: '(a+)+$',
  options: {},
};

describe('a search thread late for its caller', () => {
  it('goes on loading past a deadline it missed, and joins the idle threads for the next search', async () => {
    const moss: SearchJob = {
      kind: 'texts',
      files: [['notes.txt', 'moss\n']],
      pattern: '^moss$',
      options: {},
    };
    // One millisecond is over before any thread can load: the search fails, its thread goes on.
    await expect(searchOffThread(moss, 1)).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining('its search thread was still starting'),
    });
    await vi.waitFor(() => expect(idleSearchThreads()).toBe(1), { timeout: 60_000, interval: 50 });
    // The next search takes that thread rather than starting one: while its runaway pattern runs,
    // no thread is idle (a new thread would have left the loaded one idle for its 15 s).
    const busy = searchOffThread(runaway, 5000);
    await vi.waitFor(() => expect(idleSearchThreads()).toBe(0), { timeout: 4000, interval: 10 });
    await expect(busy).rejects.toMatchObject({ code: 'TIMEOUT' });
  }, 120_000);
});
