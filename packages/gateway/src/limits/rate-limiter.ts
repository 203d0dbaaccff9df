import { z } from 'zod';

/** A client's `rate_limit:` as written: calls a second (a token bucket of `burst`), and calls at once. */
export const rateLimitSchema = z
  .strictObject({
    calls_per_second: z.number().positive().optional(),
    burst: z.number().int().min(1).optional(),
    concurrent_calls: z.number().int().min(1).optional(),
  })
  .refine((limit) => limit.calls_per_second !== undefined || limit.concurrent_calls !== undefined, {
    message: 'give calls_per_second, concurrent_calls or both',
  });

/** A client's limits, checked. */
export interface RateLimit {
  /** Calls a second on average; the bucket refills at this rate. */
  readonly callsPerSecond?: number;
  /** How many calls may come at once after a quiet spell (the bucket's size). Default: `callsPerSecond` rounded up. */
  readonly burst?: number;
  /** How many of its calls may run at once. */
  readonly concurrentCalls?: number;
}

/** A `rate_limit:` as the gateway uses it. */
export function rateLimitOf(section: z.output<typeof rateLimitSchema>): RateLimit {
  return {
    ...(section.calls_per_second === undefined ? {} : { callsPerSecond: section.calls_per_second }),
    ...(section.burst === undefined ? {} : { burst: section.burst }),
    ...(section.concurrent_calls === undefined ? {} : { concurrentCalls: section.concurrent_calls }),
  };
}

/** Admitted: call `release` when the call ends. Refused: why, in words naming the limit. */
export type Admission = { readonly release: () => void } | { readonly refusal: string };

interface State {
  tokens: number;
  at: number;
  running: number;
}

/**
 * Each client's limits, kept in this process: a token bucket of calls a second and a count of calls
 * running. A refused call takes nothing from either.
 */
export class RateLimiter {
  readonly #clock: () => number;
  readonly #states = new Map<string, State>();

  /** `clock`: milliseconds, monotonic (default `performance.now`). */
  constructor(clock: () => number = () => performance.now()) {
    this.#clock = clock;
  }

  /** Takes a call of `client` under `limit`, or says which limit it is over. */
  admit(client: string, limit: RateLimit, where: string): Admission {
    const now = this.#clock();
    let state = this.#states.get(client);
    const burst = limit.burst ?? Math.max(1, Math.ceil(limit.callsPerSecond ?? 1));
    if (state === undefined) {
      state = { tokens: burst, at: now, running: 0 };
      this.#states.set(client, state);
    }
    if (limit.concurrentCalls !== undefined && state.running >= limit.concurrentCalls) {
      return {
        refusal: `client "${client}" has ${state.running} calls running, its limit (${where}.concurrent_calls: ${limit.concurrentCalls}); wait for one to end and call again`,
      };
    }
    if (limit.callsPerSecond !== undefined) {
      state.tokens = Math.min(burst, state.tokens + ((now - state.at) / 1000) * limit.callsPerSecond);
      state.at = now;
      if (state.tokens < 1) {
        const wait = Math.ceil(((1 - state.tokens) / limit.callsPerSecond) * 1000);
        return {
          refusal: `client "${client}" is over its rate (${where}.calls_per_second: ${limit.callsPerSecond}, burst ${burst}); wait ${wait} ms and call again`,
        };
      }
      state.tokens -= 1;
    }
    state.running++;
    let released = false;
    const held = state;
    return {
      release: () => {
        if (released) return;
        released = true;
        held.running--;
      },
    };
  }
}
