import { defineTool } from '@toolgate/core';
import { z } from 'zod';

/** A tool whose policy subject is the path it is given: what the decision tests judge by paths. */
export const reader = defineTool({
  name: 'reader',
  description: 'Reads a path.',
  input: z.object({ path: z.string().describe('A workspace path.') }),
  run: ({ path }) => ({ path }),
  policySubject: ({ path }) => ({ paths: [path] }),
});
