import { defineTool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { z } from 'zod';
import { pathSubject } from './path-subject.js';

/** `write_file { path, content }` → `{ path, bytes, created }`. Not parallel-safe. */
export function writeFileTool(environment: Environment) {
  return defineTool({
    name: 'write_file',
    description:
      'Write a text file in the workspace, replacing it if it exists and creating missing directories.',
    input: z.object({
      path: z.string().describe('The file, relative to the workspace root.'),
      content: z.string().describe('The whole new content of the file.'),
    }),
    policySubject: ({ path }) => pathSubject(environment, path),
    run: ({ path, content }) => environment.writeFile(path, content),
  });
}
