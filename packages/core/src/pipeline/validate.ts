import { ToolgateError } from '../errors.js';
import { type JsonObject, toJsonValue } from '../json.js';
import { remoteSchemaValidator } from '../remote-schema.js';
import type { ResolvedTool } from './resolve.js';

/**
 * The validate station: parameters checked against the resolved tool — its zod schema in-process;
 * for a resolver's tool, the JSON Schema it described (read back into zod, or by ajv with RE2
 * patterns; see {@link remoteSchemaValidator}), so a bad call is refused here — before policy and
 * the transport — with the same message on every transport. A remote schema that cannot be used
 * safely (too deep, too large, a `$ref` cycle, a pattern RE2 cannot run) refuses the call:
 * INVALID_DEFINITION.
 */
export function validate(resolved: ResolvedTool, parameters: unknown): JsonObject {
  if (resolved.where === 'in-process') return resolved.tool.parse(parameters) as JsonObject;
  const { name } = resolved.description;
  const value = toJsonValue(parameters ?? {}, `parameters of tool "${name}"`);
  const problems = remoteSchemaValidator(name, resolved.description.inputSchema)(value);
  if (problems !== undefined) {
    throw new ToolgateError(
      'INVALID_PARAMETERS',
      `invalid parameters for tool "${name}": ${problems}; call it again with parameters that match its schema`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolgateError(
      'INVALID_PARAMETERS',
      `invalid parameters for tool "${name}": (root): expected an object; ` +
        'call it again with an object of named parameters',
    );
  }
  return value;
}
