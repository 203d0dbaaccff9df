import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { capList, defaultFieldLimits, type FieldLimits } from './caps.js';
import { patternSubject } from './path-subject.js';

/** `glob { pattern }` → `{ paths, truncated? }`: workspace files matching a glob. Read-only, parallel-safe. */
export function globTool(
  environment: Environment,
  caps: Pick<FieldLimits, 'maxEntries'> = defaultFieldLimits,
) {
  return defineTool({
    name: 'glob',
    description:
      'Find workspace files whose path matches a glob such as "src/**/*.ts" (dotfiles only when the pattern names them). Returns sorted paths.',
    input: z.object({
      pattern: z.string().describe('A glob relative to the workspace root, e.g. "src/**/*.ts".'),
    }),
    parallelSafe: true,
    policySubject: ({ pattern }) => patternSubject(environment, pattern),
    run: async ({ pattern }) => {
      const { paths } = await environment.glob(pattern);
      const { kept, truncated } = capList(paths, caps.maxEntries, 'paths');
      return { paths: kept, ...(truncated ? { truncated } : {}) };
    },
  });
}
