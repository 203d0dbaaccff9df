import { describe, expect, it } from 'vitest';
import { modelJson } from './model-json.js';

describe('modelJson', () => {
  it('orders the keys of every object as canonical JSON does, and keeps arrays in order', () => {
    const value = { zebra: 1, apple: { b: [{ y: 1, x: 2 }, 3], a: null }, Z: 'z' };
    expect(JSON.stringify(modelJson(value))).toBe(
      '{"Z":"z","apple":{"a":null,"b":[{"x":2,"y":1},3]},"zebra":1}',
    );
  });
});
