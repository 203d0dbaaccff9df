import { describe, expect, it } from 'vitest';
import { AnsweredStates } from './answered-states.js';

describe('AnsweredStates', () => {
  it('lets a state be answered once until it expires', () => {
    const states = new AnsweredStates();
    expect(states.claim('a', 2_000, 1_000)).toBe(true);
    expect(states.claim('a', 2_000, 1_500)).toBe(false);
    expect(states.claim('b', 2_000, 1_500)).toBe(true);
    expect(states.claim('a', 3_000, 2_500)).toBe(true); // expired: its signature no longer verifies anyway
  });

  it('holds at most its limit, dropping expired states first', () => {
    const states = new AnsweredStates(2);
    states.claim('old', 1_000, 0);
    states.claim('live', 9_000, 0);
    states.claim('new', 9_000, 2_000);
    expect(states.claim('live', 9_000, 3_000)).toBe(false);
    expect(states.claim('new', 9_000, 3_000)).toBe(false);
  });
});
