import { z } from 'zod';
import type { ToolContext } from './context.js';
import { checkTimeout } from './deadlines.js';
import { messageOf, ToolgateError } from './errors.js';
import { allowingAuthority } from './pipeline/authorize.js';
import { plainSchema } from './plain-schema.js';
import type { PolicySubject } from './policy.js';
import { formatIssues } from './zod-issues.js';

/** Tool names a model can call: letters, digits, `_`, `.`, `-`; 1 to 64 characters. */
export const toolNamePattern = /^[a-zA-Z0-9_.-]{1,64}$/;

/** The JSON Schema of a tool's parameters, as a model sees it. */
export type JsonSchema = { [key: string]: unknown };

/** What a model is told about a tool: its name, what it does, and its parameters' JSON Schema. */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** True when the tool has no side effects and may run concurrently with others. */
  readonly parallelSafe?: boolean;
}

/** What {@link defineTool} takes. */
export interface ToolDefinition<Input extends z.ZodObject> {
  /** The name a model calls the tool by; must match `toolNamePattern`. */
  name: string;
  /** What the tool does, for the model. Required. */
  description: string;
  /** A zod object schema; every property needs `.describe()`. */
  input: Input;
  /**
   * Does the work. May be sync or async; returns a JSON-serialisable value. `context` carries the
   * call's abort `signal`, its `callId`, the calling `agent`, `reportProgress`, and `authorize` /
   * `judge` to ask policy about what the call finds while it runs.
   */
  run: (parameters: z.output<Input>, context: ToolContext) => unknown;
  /**
   * The time budget of one call, in ms: past it the tool's signal is aborted and the call ends
   * with TIMEOUT (the gate stops waiting). Default: the gate's `timeoutMs`.
   */
  timeoutMs?: number;
  /**
   * True when the tool only reads and may run concurrently with other such tools; or a function of
   * the validated parameters that says so per call (e.g. only for GET requests). Default false.
   */
  parallelSafe?: boolean | ((parameters: z.output<Input>) => boolean);
  /**
   * Turns validated parameters into the canonical resources policy rules match on: resolved
   * paths, parsed commands, parsed hosts; `() => ({})` for a tool that touches none. A tool without
   * it has an unknown subject: rules on paths, commands or hosts apply to it only if they deny.
   */
  policySubject?: (parameters: z.output<Input>) => PolicySubject | Promise<PolicySubject>;
  /**
   * True for a tool whose only effects are calls through the gate (an agent used as a tool): a
   * replay runs it again, registered in the replay's registry, so its inner calls are replayed with
   * the rest, instead of handing back its recorded output. Default false.
   */
  composite?: boolean;
}

/** A defined, described tool. Create one with {@link defineTool}. */
export interface Tool<Input extends z.ZodObject = z.ZodObject> extends ToolDescription {
  readonly input: Input;
  /** True when every call may run concurrently; a tool that decides per call says false here. */
  readonly parallelSafe: boolean;
  /**
   * True when this call may run concurrently with others: `parallelSafe`, or what the tool's
   * function says of these parameters. False for parameters that do not validate, or when the
   * function throws.
   */
  isParallelSafe(parameters: unknown): boolean;
  /** Validates raw parameters: the parsed value, or a ToolgateError naming the bad field. */
  parse(parameters: unknown): z.output<Input>;
  /**
   * Runs the tool. Called directly without a context (a benchmark, a test), it gets one whose
   * signal never aborts, with no agent, no progress listener, and an `authorize`/`judge` that allow.
   */
  run(parameters: z.output<Input>, context?: ToolContext): unknown;
  /** The time budget of one call in ms, when the tool sets its own. */
  readonly timeoutMs?: number;
  policySubject?(parameters: z.output<Input>): PolicySubject | Promise<PolicySubject>;
  /** True when a replay runs this tool again rather than handing back its recorded output (see {@link ToolDefinition.composite}). */
  readonly composite?: boolean;
}

/**
 * Defines a typed tool. The JSON Schema the model sees is derived from the zod schema; a tool that
 * cannot be described accurately (no description, an undescribed parameter, a type JSON Schema
 * cannot express) is refused here, before any agent runs.
 *
 * @example
 * const oracle = defineTool({
 *   name: 'oracle',
 *   description: 'Draw a cryptic omen from a seed.',
 *   input: z.object({ seed: z.string().describe('Any text; the same seed gives the same omen.') }),
 *   run: ({ seed }) => ({ omen: pickOmen(seed) }),
 *   parallelSafe: true,
 * });
 */
export function defineTool<Input extends z.ZodObject>(definition: ToolDefinition<Input>): Tool<Input> {
  const { name, description, input, run } = definition;
  if (typeof name !== 'string' || !toolNamePattern.test(name)) {
    throw invalid(
      `tool name ${JSON.stringify(name)} is not allowed; use 1–64 letters, digits, "_", "." or "-"`,
    );
  }
  if (typeof description !== 'string' || description.trim() === '') {
    throw invalid(`tool "${name}" has no description; a model cannot use a tool it is not told about`);
  }
  if (!(input instanceof z.ZodObject)) {
    throw invalid(`tool "${name}" must take a zod object schema as "input" (z.object({ … }))`);
  }
  if (typeof run !== 'function') throw invalid(`tool "${name}" has no "run" function`);

  const strictInput = (input.def.catchall === undefined ? input.strict() : input) as Input;
  const inputSchema = describeSchema(name, strictInput);
  const safety = definition.parallelSafe ?? false;
  if (typeof safety !== 'boolean' && typeof safety !== 'function') {
    throw invalid(`tool "${name}" has a "parallelSafe" that is neither a boolean nor a function`);
  }
  const tool: Tool<Input> = {
    name,
    description,
    input,
    inputSchema,
    parallelSafe: safety === true,
    isParallelSafe:
      typeof safety === 'boolean' ? () => safety : (parameters) => safeFor(strictInput, safety, parameters),
    parse: (parameters) => parseParameters(name, strictInput, parameters),
    run: (parameters, context) => run(parameters, context ?? standaloneContext()),
  };
  if (definition.policySubject) tool.policySubject = definition.policySubject;
  if (definition.composite === true) (tool as { composite?: boolean }).composite = true;
  if (definition.timeoutMs !== undefined)
    (tool as { timeoutMs?: number }).timeoutMs = checkTimeout(definition.timeoutMs, `tool "${name}":`);
  return Object.freeze(tool);
}

function standaloneContext(): ToolContext {
  return {
    signal: new AbortController().signal,
    callId: crypto.randomUUID(),
    agent: '',
    deadline: Number.POSITIVE_INFINITY,
    reportProgress() {},
    authorize: allowingAuthority.authorize,
    judge: allowingAuthority.judge,
    judgesPaths: allowingAuthority.judgesPaths,
  };
}

function safeFor<Input extends z.ZodObject>(
  input: Input,
  safety: (parameters: z.output<Input>) => boolean,
  parameters: unknown,
): boolean {
  const result = input.safeParse(parameters ?? {});
  if (!result.success) return false;
  try {
    return safety(result.data) === true;
  } catch {
    return false;
  }
}

function describeSchema(name: string, input: z.ZodObject): JsonSchema {
  let schema: JsonSchema;
  try {
    schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'throw' }) as JsonSchema;
  } catch (error) {
    throw invalid(
      `tool "${name}" has parameters JSON Schema cannot express (${messageOf(error)}); ` +
        'use strings, numbers, booleans, enums, arrays and objects',
      error,
    );
  }
  const properties = (schema.properties ?? {}) as Record<string, { description?: unknown }>;
  const undescribed = Object.keys(properties).filter((key) => !properties[key]?.description);
  if (undescribed.length > 0) {
    throw invalid(
      `tool "${name}" has parameters without a description: ${undescribed.join(', ')}; ` +
        'add .describe("…") to each',
    );
  }
  delete schema.$schema;
  return plainSchema(schema);
}

function parseParameters<Input extends z.ZodObject>(
  name: string,
  input: Input,
  parameters: unknown,
): z.output<Input> {
  const result = input.safeParse(parameters ?? {});
  if (result.success) return result.data;
  throw invalidParameters(name, result.error);
}

/** The INVALID_PARAMETERS error for a call, naming every bad field. */
export function invalidParameters(name: string, error: z.ZodError): ToolgateError {
  return new ToolgateError(
    'INVALID_PARAMETERS',
    `invalid parameters for tool "${name}": ${formatIssues(error)}; ` +
      'call it again with parameters that match its schema',
  );
}

function invalid(message: string, cause?: unknown): ToolgateError {
  return new ToolgateError('INVALID_DEFINITION', message, cause === undefined ? undefined : { cause });
}
