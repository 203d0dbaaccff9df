import { type FunctionTool, type ToolOptions, tool, UserError } from '@openai/agents';
import type { JsonSchema } from '@toolgate/core';

/** Whether a tool's schema went to the model in Agents' strict mode, and why not when it did not. */
export type Strictness = { strict: true } | { strict: false; reason: string };

/** What {@link strictTool} builds a function tool from (everything but `parameters` and `strict`). */
export type FunctionToolParts = Omit<ToolOptions<never>, 'parameters' | 'strict'>;

/**
 * Builds the function tool in strict mode when Agents can express the schema strictly (optional
 * properties become required and nullable, and Agents strips the nulls before the tool sees the
 * input), and in non-strict mode when it cannot, with Agents' own reason — never a crash.
 */
export function strictTool(
  schema: JsonSchema,
  parts: FunctionToolParts,
  prefer: 'auto' | false,
): { tool: FunctionTool<unknown, never, unknown>; strictness: Strictness } {
  // biome-ignore lint/suspicious/noExplicitAny: Agents' option union is keyed on the schema's static type, which a runtime JSON Schema has not
  const build = (strict: boolean) => tool({ ...parts, parameters: structuredClone(schema), strict } as any);
  if (prefer === false)
    return { tool: build(false), strictness: { strict: false, reason: 'strict mode turned off' } };
  try {
    return { tool: build(true), strictness: { strict: true } };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { tool: build(false), strictness: { strict: false, reason: error.message } };
  }
}
