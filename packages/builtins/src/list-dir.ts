import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { capList, defaultFieldLimits, type FieldLimits } from './caps.js';
import { pathSubject } from './path-subject.js';

/** `list_dir { path? }` → `{ path, entries: [{ name, type }], truncated? }`. Read-only, parallel-safe. */
export function listDirTool(
  environment: Environment,
  caps: Pick<FieldLimits, 'maxEntries'> = defaultFieldLimits,
) {
  return defineTool({
    name: 'list_dir',
    description:
      'List a directory of the workspace: each entry with its type (file, directory, symlink, other).',
    input: z.object({
      path: z
        .string()
        .optional()
        .describe('The directory, relative to the workspace root. Default: the root.'),
    }),
    parallelSafe: true,
    policySubject: ({ path }) => pathSubject(environment, path ?? '.'),
    run: async ({ path }) => {
      const listing = await environment.listDirectory(path ?? '.');
      const { kept, truncated } = capList(listing.entries, caps.maxEntries, 'entries');
      return { path: listing.path, entries: kept, ...(truncated ? { truncated } : {}) };
    },
  });
}
