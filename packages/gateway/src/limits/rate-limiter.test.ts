import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

describe('RateLimiter', () => {
  it('lets a burst through, refuses the next call naming the limit, and refills at the rate', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const limit = { callsPerSecond: 2, burst: 3 };
    for (let call = 0; call < 3; call++)
      expect(limiter.admit('ci', limit, 'clients.ci.rate_limit')).toHaveProperty('release');
    const refused = limiter.admit('ci', limit, 'clients.ci.rate_limit');
    expect(refused).toEqual({
      refusal:
        'client "ci" is over its rate (clients.ci.rate_limit.calls_per_second: 2, burst 3); wait 500 ms and call again',
    });
    now = 499;
    expect(limiter.admit('ci', limit, 'clients.ci.rate_limit')).toHaveProperty('refusal');
    now = 1000; // 1 s after the burst: two calls' worth refilled, less the refusals' nothing
    expect(limiter.admit('ci', limit, 'clients.ci.rate_limit')).toHaveProperty('release');
    expect(limiter.admit('ci', limit, 'clients.ci.rate_limit')).toHaveProperty('release');
    expect(limiter.admit('ci', limit, 'clients.ci.rate_limit')).toHaveProperty('refusal');
    // another client has a bucket of its own
    expect(limiter.admit('desktop', limit, 'clients.desktop.rate_limit')).toHaveProperty('release');
  });

  it('holds calls at once to the limit until one is released, and a release counts once', () => {
    const limiter = new RateLimiter(() => 0);
    const limit = { concurrentCalls: 2 };
    const first = limiter.admit('ci', limit, 'x');
    const second = limiter.admit('ci', limit, 'x');
    expect(limiter.admit('ci', limit, 'x')).toEqual({
      refusal:
        'client "ci" has 2 calls running, its limit (x.concurrent_calls: 2); wait for one to end and call again',
    });
    if (!('release' in first) || !('release' in second)) throw new Error('both were admitted');
    first.release();
    first.release();
    const third = limiter.admit('ci', limit, 'x');
    expect(third).toHaveProperty('release');
    expect(limiter.admit('ci', limit, 'x')).toHaveProperty('refusal');
  });
});
