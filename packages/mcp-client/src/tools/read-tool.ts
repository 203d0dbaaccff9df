import type { JsonSchema } from '@toolgate/core';
import { messageOf } from '@toolgate/core';
import { checkRemoteSchema, promptText, toolNamePattern } from '@toolgate/core/internal';
import { fingerprint, type ToolShape } from './fingerprint.js';

/** A listed tool that can be served: its local name, remote name, shape and fingerprint. */
export interface ReadableTool {
  readable: true;
  name: string;
  remoteName: string;
  shape: ToolShape;
  print: string;
  /** What the server says about the tool beyond its shape, for clients to show: never approved, never trusted. */
  extras: ToolExtras;
}

/**
 * A listed tool's presentation, passed on to clients as the server sent it: `title`, `annotations`
 * (hints such as `readOnlyHint`: untrusted, never read by the gate), `icons`, `outputSchema`. Not
 * part of the fingerprint; kept only when each has the type the MCP schema gives it.
 */
export interface ToolExtras {
  title?: string;
  annotations?: Record<string, unknown>;
  icons?: unknown[];
  outputSchema?: Record<string, unknown>;
}

/** A listed tool that cannot be indexed safely: what it can be reported as, and why. */
export interface WithheldTool {
  readable: false;
  name: string;
  remoteName: string;
  /** The description, cleaned and capped for a report; the schema is left out (it may be the hazard). */
  after: ToolShape;
  reason: string;
}

const reportedNameChars = 200;
const reportedDescriptionChars = 1000;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Reads one tool exactly as a server listed it, without trusting anything about it: a name, a
 * description and an input schema that are what they claim, well-formed text, and a schema that
 * passes core's `checkRemoteSchema` (depth, size, `$ref` cycles, RE2 patterns), and no need of MCP
 * tasks (`execution.taskSupport: "required"`: toolgate calls tools plainly). Anything else is
 * withheld with the reason. Never throws, never recurses into the schema.
 */
export function readTool(raw: unknown, prefix: string | undefined): ReadableTool | WithheldTool {
  const tool = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const remoteName = typeof tool.name === 'string' ? tool.name : '';
  const name = prefix === undefined ? remoteName : `${prefix}__${remoteName}`;
  const description = tool.description ?? '';
  const withheld = (reason: string): WithheldTool => ({
    readable: false,
    name: promptText(name, reportedNameChars),
    remoteName: promptText(remoteName, reportedNameChars),
    after: {
      description: typeof description === 'string' ? promptText(description, reportedDescriptionChars) : '',
      inputSchema: {},
    },
    reason,
  });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return withheld('it is not an object');
  if (typeof tool.name !== 'string') return withheld('it has no string "name"');
  if (!toolNamePattern.test(name)) {
    return withheld(
      `its name ${JSON.stringify(promptText(name, reportedNameChars))} is not a valid tool name`,
    );
  }
  if (typeof description !== 'string') return withheld('its "description" is not a string');
  if (loneSurrogate.test(description)) {
    return withheld('its description is not well-formed Unicode (a lone surrogate)');
  }
  const execution = tool.execution as { taskSupport?: unknown } | undefined;
  if (typeof execution === 'object' && execution !== null && execution.taskSupport === 'required') {
    return withheld(
      'it requires MCP tasks (execution.taskSupport "required"), which toolgate does not run; ' +
        'it can only be called as a task',
    );
  }
  const inputSchema = tool.inputSchema;
  if (
    typeof inputSchema !== 'object' ||
    inputSchema === null ||
    Array.isArray(inputSchema) ||
    (inputSchema as { type?: unknown }).type !== 'object'
  ) {
    return withheld('its "inputSchema" is not a JSON Schema of type "object"');
  }
  try {
    checkRemoteSchema(inputSchema);
  } catch (error) {
    return withheld(`its input schema: ${messageOf(error)}`);
  }
  const shape: ToolShape = { description, inputSchema: inputSchema as JsonSchema };
  return { readable: true, name, remoteName, shape, print: fingerprint(shape), extras: extrasOf(tool) };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function extrasOf(tool: Record<string, unknown>): ToolExtras {
  const extras: ToolExtras = {};
  if (typeof tool.title === 'string' && !loneSurrogate.test(tool.title)) {
    extras.title = promptText(tool.title, reportedNameChars);
  }
  if (isObject(tool.annotations)) extras.annotations = tool.annotations;
  if (Array.isArray(tool.icons)) extras.icons = tool.icons;
  if (isObject(tool.outputSchema) && tool.outputSchema.type === 'object')
    extras.outputSchema = tool.outputSchema;
  return extras;
}
