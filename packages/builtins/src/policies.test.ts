import type { PolicyRequest } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { policies } from './policies.js';

function request(tool: string): PolicyRequest {
  return { agent: 'a', tool, parameters: {}, subject: {} };
}

describe('policies', () => {
  it('offers presets: allow-all, read-only and workspace', () => {
    expect(policies.allowAll().decide(request('shell')).decision).toBe('allow');
    expect(policies.readOnly().decide(request('read_file')).decision).toBe('allow');
    expect(policies.readOnly().decide(request('write_file')).decision).toBe('deny');
    expect(policies.workspace().decide(request('write_file')).decision).toBe('allow');
    expect(policies.workspace().decide(request('shell')).decision).toBe('ask');
  });
});
