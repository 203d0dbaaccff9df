import { describe, expect, it } from 'vitest';
import { fingerprint } from './fingerprint.js';

describe('fingerprint', () => {
  it('ignores key order but not content', () => {
    const a = fingerprint({
      description: 'd',
      inputSchema: { type: 'object', properties: { x: { type: 'string' } } },
    });
    const b = fingerprint({
      description: 'd',
      inputSchema: { properties: { x: { type: 'string' } }, type: 'object' },
    });
    const c = fingerprint({
      description: 'd',
      inputSchema: { properties: { x: { type: 'number' } }, type: 'object' },
    });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(fingerprint({ description: 'e', inputSchema: {} })).not.toBe(
      fingerprint({ description: 'd', inputSchema: {} }),
    );
  });
});
