import { z } from 'zod';
import { ToolgateError } from './errors.js';
import { toolNamePattern } from './tool.js';
import { formatIssues } from './zod-issues.js';

/**
 * The zod schema of an agent manifest. `{ name, tools }` is complete; the rest is optional and
 * unknown keys are refused, so a typo in a manifest is an error rather than a silently ignored
 * field.
 */
export const manifestSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/, 'must be 1–64 letters, digits, "_", "." or "-"'),
  tools: z
    .array(z.string().regex(toolNamePattern, 'must be a tool name (letters, digits, "_", ".", "-")'))
    .refine((tools) => new Set(tools).size === tools.length, 'must not name a tool twice'),
  description: z.string().optional(),
  model: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** An agent's manifest: who it is and which tools it is granted. */
export type Manifest = z.output<typeof manifestSchema>;

/**
 * Validates an agent manifest. A bad field is an INVALID_DEFINITION error that names the field.
 *
 * @param source where the manifest came from (a file name), for the message.
 * @example
 * const manifest = parseManifest({ name: 'fortune-teller', tools: ['oracle'] });
 */
export function parseManifest(value: unknown, source = 'manifest'): Manifest {
  const result = manifestSchema.safeParse(value);
  if (result.success) return result.data;
  throw new ToolgateError(
    'INVALID_DEFINITION',
    `${source} is not a valid agent manifest: ${formatIssues(result.error)}`,
  );
}
