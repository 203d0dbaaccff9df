import { RulePolicy, type ToolContext } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { withholdRemotePaths } from './remote-withheld.js';
import type { McpServerConfig } from './server-config.js';

const policy = new RulePolicy({
  default: 'allow',
  rules: [{ tools: ['fetch'], hosts: ['denied.test'], decision: 'deny' }],
});
const context: ToolContext = {
  signal: new AbortController().signal,
  callId: 'call-1',
  agent: 'agent',
  deadline: Number.POSITIVE_INFINITY,
  reportProgress() {},
  authorize: () => Promise.reject(new Error('not asked here')),
  judge: (subject, options) =>
    policy.decide({ agent: 'agent', tool: options?.tool ?? 'fetch', parameters: {}, subject }),
};
const toolgate: McpServerConfig = { name: 'ws', command: 'unused', subjects: 'toolgate', root: '/tmp' };

describe("toolgate-mcp's fetch, judged after the fact from the redirects it reports", () => {
  it('withholds a response that came through a hop policy denies, naming the hop', () => {
    const output = { url: 'http://denied.test/x', body: 'secret', redirects: ['http://denied.test/x'] };
    expect(() => withholdRemotePaths(toolgate, 'fetch', output, context)).toThrow(
      expect.objectContaining({
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining('redirect 1 of this request to http://denied.test/x'),
      }),
    );
  });

  it('passes a response whose hops policy allows, and any server not configured as toolgate', () => {
    const output = { url: 'http://ok.test/', body: 'fine', redirects: ['http://ok.test/'] };
    expect(withholdRemotePaths(toolgate, 'fetch', output, context)).toBe(output);
    const denied = { url: 'http://denied.test/', body: 'theirs', redirects: ['http://denied.test/'] };
    expect(withholdRemotePaths({ name: 'other', command: 'unused' }, 'fetch', denied, context)).toBe(denied);
  });
});
