import { afterAll, describe, expect, it } from 'vitest';
import { MemoryEnvironment } from '../memory/memory-environment.js';
import { maxSearchThreads, runningSearchThreads } from './search-thread.js';

// Forty `a`s before a `!` make this pattern backtrack for days, so only a deadline ends it.
const files = { 'notes.txt': `moss\n${'a'.repeat(40)}!\n` };
const runaway = '(a+)+$';

let sampler: ReturnType<typeof setInterval> | undefined;
afterAll(() => clearInterval(sampler));

describe('search threads', () => {
  it('runs at most max(2, availableParallelism()) at once; a search waiting in line still ends with TIMEOUT at its deadline', async () => {
    expect(maxSearchThreads).toBeGreaterThanOrEqual(2);
    let most = 0;
    sampler = setInterval(() => {
      most = Math.max(most, runningSearchThreads());
    }, 5);
    // Every thread is taken by a runaway search with a long deadline...
    const busy = new MemoryEnvironment({ files, searchTimeoutMs: 10_000 });
    let busyEnded = 0;
    const occupying = Array.from({ length: maxSearchThreads }, () =>
      busy.search(runaway).then(
        () => 'answered',
        (error: { code?: string }) => {
          busyEnded++;
          return error.code;
        },
      ),
    );
    for (let waited = 0; runningSearchThreads() < maxSearchThreads && waited < 60_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runningSearchThreads()).toBe(maxSearchThreads);

    // ...so these wait in line: one with a short deadline, and an ordinary search.
    const hurried = new MemoryEnvironment({ files, searchTimeoutMs: 1500 });
    const ordinary = new MemoryEnvironment({ files, searchTimeoutMs: 60_000 }).search('^moss$');
    const error = await hurried.search(runaway).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect((error as Error).message).toMatch(/deadline of 1500 ms .*waited all that time in line/);
    // It ended at its own deadline, counted from when it was asked, not after the busy threads.
    expect(busyEnded).toBe(0);
    expect(runningSearchThreads()).toBe(maxSearchThreads);

    // When the runaway searches reach their deadline, the one still in line runs.
    expect(await Promise.all(occupying)).toEqual(occupying.map(() => 'TIMEOUT'));
    expect((await ordinary).matches).toEqual([{ path: 'notes.txt', line: 1, text: 'moss' }]);
    clearInterval(sampler);
    expect(most).toBe(maxSearchThreads);
  }, 120_000);
});
