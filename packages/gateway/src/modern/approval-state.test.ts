import { describe, expect, it } from 'vitest';
import { approvalCodec, callDigest, stateKeyVariable } from './approval-state.js';

describe('the signed requestState of an ask', () => {
  it('refuses a key shorter than 32 bytes, naming the variable and what to do', async () => {
    await expect(approvalCodec({ [stateKeyVariable]: 'short' })).rejects.toThrow(
      /TOOLGATE_GATEWAY_STATE_KEY holds 5 bytes; the key that signs the requestState of an ask needs 32 or more/,
    );
  });

  it('binds the tool and its arguments: another tool or other arguments give another digest', () => {
    const digest = callDigest('ev__echo', { message: 'a' });
    expect(callDigest('ev__echo', { message: 'a' })).toBe(digest);
    expect(callDigest('ev__echo', { message: 'b' })).not.toBe(digest);
    expect(callDigest('ev__other', { message: 'a' })).not.toBe(digest);
  });
});
