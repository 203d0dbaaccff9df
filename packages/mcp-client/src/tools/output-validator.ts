import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';

/**
 * The JSON Schema validator toolgate gives the SDK `Client`: it accepts every value, so a server's
 * `outputSchema` never runs on this side. toolgate does not use output schemas (a result is mapped
 * and capped as data), and the SDK's default — ajv on the event loop — lets a server's `pattern`
 * such as `^(a+)+$` stall the whole process for minutes, out of reach of any call timeout.
 */
export const outputSchemasNotValidated: jsonSchemaValidator = {
  getValidator<T>(_schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};
