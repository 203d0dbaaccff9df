import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { capList, defaultFieldLimits, type FieldLimits } from './caps.js';
import { policyJudgesPaths, policyWithholds, withheldField } from './path-policy.js';
import { patternSubject } from './path-subject.js';
import { untilDeadline } from './time-left.js';

/**
 * `search_files { pattern, glob? }` → `{ matches: ['path:line: text'], totalMatches, truncated?,
 * withheldByPolicy? }`: the lines matching a regular expression, first by path then line. Files
 * policy withholds (see `policyWithholds`) are never opened; `withheldByPolicy` counts them.
 * Read-only, parallel-safe.
 */
export function searchFilesTool(
  environment: Environment,
  caps: Pick<FieldLimits, 'maxMatches' | 'maxLineChars'> = defaultFieldLimits,
) {
  return defineTool({
    name: 'search_files',
    description:
      'Search the contents of workspace files for a regular expression (JavaScript syntax), line by line. Returns "path:line: text" for each matching line; files policy does not let you read are skipped and counted in withheldByPolicy.',
    input: z.object({
      pattern: z
        .string()
        .describe('A regular expression, e.g. "function \\w+Tool"; matched against each line.'),
      glob: z
        .string()
        .optional()
        .describe('Only search files whose path matches this glob, e.g. "src/**/*.ts".'),
    }),
    parallelSafe: true,
    policySubject: ({ glob }) => patternSubject(environment, glob),
    run: async ({ pattern, glob }, context) => {
      const result = await environment.search(pattern, {
        ...(glob === undefined ? {} : { glob }),
        maxMatches: caps.maxMatches,
        maxLineChars: caps.maxLineChars,
        // no file is asked about one by one when no path can change policy's verdict
        ...(policyJudgesPaths(context) ? { withhold: policyWithholds(context) } : {}),
        ...untilDeadline(context.deadline),
      });
      const lines = result.matches.map((match) => `${match.path}:${match.line}: ${match.text}`);
      const { kept, truncated } = capList(lines, caps.maxMatches, 'matches', result.totalMatches);
      return {
        matches: kept,
        totalMatches: result.totalMatches,
        ...(truncated ? { truncated } : {}),
        ...withheldField(result.withheld ?? 0),
      };
    },
  });
}
