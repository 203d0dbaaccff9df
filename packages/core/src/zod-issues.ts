import type { z } from 'zod';

/** One problem zod found: what {@link formatIssue} words. */
export type ZodIssue = z.ZodError['issues'][number];

/** Formats zod issues as `field: problem; field: problem`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues.map(formatIssue).join('; ');
}

/**
 * Formats one zod issue as `field: problem` (an unknown field named as such), for a message that
 * adds its own context to each issue, such as the line it is on.
 *
 * @example
 * formatIssue(result.error.issues[0]!); // 'clients.desktop.tools: grant at least one tool pattern'
 */
export function formatIssue(issue: ZodIssue): string {
  const field = formatIssuePath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return `${field}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  }
  return `${field}: ${issue.message}`;
}

/**
 * The path of a field as a message names it: `servers.files.args[2]`, or `(root)` for the whole value.
 *
 * @example
 * formatIssuePath(['servers', 'files', 'args', 2]); // 'servers.files.args[2]'
 */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`,
    )
    .join('');
}
