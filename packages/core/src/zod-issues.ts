import type { z } from 'zod';

/** Formats zod issues as `field: problem; field: problem`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length === 0 ? '(root)' : formatPath(issue.path);
      if (issue.code === 'unrecognized_keys') {
        return `${field}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
      }
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`,
    )
    .join('');
}
