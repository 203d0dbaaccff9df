import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { capField, defaultFieldLimits, type FieldLimits } from './caps.js';
import { pathSubject } from './path-subject.js';

/**
 * `read_file { path, offset?, limit? }` → `{ path, content, startLine, endLine, totalLines }`:
 * lines of a text file, the content capped with a truncation marker. Read-only, parallel-safe.
 */
export function readFileTool(
  environment: Environment,
  caps: Pick<FieldLimits, 'maxFieldChars'> = defaultFieldLimits,
) {
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file in the workspace. Returns its lines (all, or `limit` lines from line `offset`) and the total line count.',
    input: z.object({
      path: z.string().describe('The file, relative to the workspace root.'),
      offset: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe('The first line to read, counting from 1. Default 1.'),
      limit: z.number().int().min(0).optional().describe('How many lines to read. Default: to the end.'),
    }),
    parallelSafe: true,
    policySubject: ({ path }) => pathSubject(environment, path),
    run: async ({ path, offset, limit }) => {
      const file = await environment.readFile(path, { offset, limit });
      return { ...file, content: capField(file.content, caps.maxFieldChars) };
    },
  });
}
