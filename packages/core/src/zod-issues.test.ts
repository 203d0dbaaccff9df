import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssue, formatIssuePath, formatIssues } from './zod-issues.js';

describe('zod issues as messages', () => {
  const schema = z.strictObject({ servers: z.record(z.string(), z.object({ args: z.array(z.string()) })) });

  it('words one issue as `field: problem`, an unknown field as such, the whole value as (root)', () => {
    const wrongType = schema.safeParse({ servers: { files: { args: ['a', 2] } } });
    const unknown = schema.safeParse({ servers: {}, extra: 1, more: 2 });
    const notObject = schema.safeParse(7);
    expect(wrongType.success || unknown.success || notObject.success).toBe(false);
    expect(formatIssue(wrongType.error!.issues[0]!)).toMatch(/^servers\.files\.args\[1\]: .*string/);
    expect(formatIssue(unknown.error!.issues[0]!)).toBe('(root): unknown fields "extra", "more"');
    expect(formatIssue(notObject.error!.issues[0]!)).toMatch(/^\(root\): .*object/);
  });

  it('joins the issues of an error with "; "', () => {
    const result = schema.safeParse({ servers: { files: { args: [1] } }, extra: 1 });
    expect(formatIssues(result.error!)).toBe(result.error!.issues.map(formatIssue).join('; '));
    expect(result.error!.issues.length).toBe(2);
  });

  it('names a path with dots and indexes', () => {
    expect(formatIssuePath(['servers', 'files', 'args', 2])).toBe('servers.files.args[2]');
    expect(formatIssuePath([])).toBe('(root)');
  });
});
