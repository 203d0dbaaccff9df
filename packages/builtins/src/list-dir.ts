import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { capList, defaultFieldLimits, type FieldLimits } from './caps.js';
import { policyWithholds, withheldField } from './path-policy.js';
import { pathSubject } from './path-subject.js';

/**
 * `list_dir { path? }` → `{ path, entries: [{ name, type }], truncated?, withheldByPolicy? }`.
 * Entries policy withholds (see `policyWithholds`; judged at the directory's resolved path
 * joined with the entry's name) are left out and counted. Read-only, parallel-safe.
 */
export function listDirTool(
  environment: Environment,
  caps: Pick<FieldLimits, 'maxEntries'> = defaultFieldLimits,
) {
  return defineTool({
    name: 'list_dir',
    description:
      'List a directory of the workspace: each entry with its type (file, directory, symlink, other); entries policy does not let you read are left out and counted in withheldByPolicy.',
    input: z.object({
      path: z
        .string()
        .optional()
        .describe('The directory, relative to the workspace root. Default: the root.'),
    }),
    parallelSafe: true,
    policySubject: ({ path }) => pathSubject(environment, path ?? '.'),
    run: async ({ path }, context) => {
      const listing = await environment.listDirectory(path ?? '.');
      const withholds = policyWithholds(context);
      const prefix = listing.path === '.' ? '' : `${listing.path}/`;
      const shown = listing.entries.filter((entry) => !withholds(`${prefix}${entry.name}`));
      const { kept, truncated } = capList(shown, caps.maxEntries, 'entries');
      return {
        path: listing.path,
        entries: kept,
        ...(truncated ? { truncated } : {}),
        ...withheldField(listing.entries.length - shown.length),
      };
    },
  });
}
