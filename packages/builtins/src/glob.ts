import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { capList, defaultFieldLimits, type FieldLimits } from './caps.js';
import { policyJudgesPaths, policyWithholds, withheldField } from './path-policy.js';
import { patternSubject, resolvedPaths } from './path-subject.js';

/**
 * `glob { pattern }` → `{ paths, truncated?, withheldByPolicy? }`: workspace files matching a glob.
 * Paths policy withholds (see `policyWithholds`; judged at their resolved path, so a link
 * in the pattern's base does not hide where a file lies) are left out and counted. Read-only,
 * parallel-safe.
 */
export function globTool(
  environment: Environment,
  caps: Pick<FieldLimits, 'maxEntries'> = defaultFieldLimits,
) {
  return defineTool({
    name: 'glob',
    description:
      'Find workspace files whose path matches a glob such as "src/**/*.ts" (dotfiles only when the pattern names them). Returns sorted paths; paths policy does not let you read are left out and counted in withheldByPolicy.',
    input: z.object({
      pattern: z.string().describe('A glob relative to the workspace root, e.g. "src/**/*.ts".'),
    }),
    parallelSafe: true,
    policySubject: ({ pattern }) => patternSubject(environment, pattern),
    run: async ({ pattern }, context) => {
      const { paths } = await environment.glob(pattern);
      // each path is resolved and judged only when a path can change policy's verdict
      let shown = paths;
      if (policyJudgesPaths(context)) {
        const withholds = policyWithholds(context);
        const resolved = await resolvedPaths(environment, paths);
        shown = paths.filter((_path, index) => !withholds(resolved[index]!));
      }
      const { kept, truncated } = capList(shown, caps.maxEntries, 'paths');
      return {
        paths: kept,
        ...(truncated ? { truncated } : {}),
        ...withheldField(paths.length - shown.length),
      };
    },
  });
}
