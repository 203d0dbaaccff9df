import type { Ajv, ErrorObject } from 'ajv';
import { z } from 'zod';
import { messageOf, ToolgateError } from './errors.js';
import type { JsonValue } from './json.js';
import { ajvClass } from './lazy-dependencies.js';
import { linearPattern } from './linear-pattern.js';
import { checkRemoteSchema } from './remote-schema-check.js';
import { formatIssues } from './zod-issues.js';

/** Checks a value against a remote tool's input schema: the problems as `field: problem; …`, or undefined. */
export type RemoteSchemaValidator = (value: JsonValue) => string | undefined;

const compiled = new WeakMap<object, RemoteSchemaValidator | ToolgateError>();

/**
 * The validator of a remote tool's JSON Schema, compiled once per schema object and cached. The
 * schema is first checked ({@link checkRemoteSchema}: depth, size, `$ref` cycles, patterns). A schema
 * zod reads back, without regular expressions, is validated by zod (the same messages as an
 * in-process tool); one with a `pattern`, or one zod cannot read, by ajv with every pattern run by
 * RE2 (linear time: no input can stall the process). Throws INVALID_DEFINITION, naming the tool,
 * when the schema cannot be used; the tool then cannot be called.
 */
export function remoteSchemaValidator(tool: string, schema: object): RemoteSchemaValidator {
  let validator = compiled.get(schema);
  if (validator === undefined) {
    try {
      validator = compile(schema);
    } catch (error) {
      validator = new ToolgateError(
        'INVALID_DEFINITION',
        `${messageOf(error)}; the tool cannot be called until its server fixes its input schema`,
        { cause: error },
      );
    }
    compiled.set(schema, validator);
  }
  if (validator instanceof ToolgateError) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `the input schema of tool "${tool}" cannot be used: ${validator.message}`,
    );
  }
  return validator;
}

const unreadable = new WeakMap<object, string>();

/**
 * Why zod could not read a remote tool's input schema back, so that ajv validates it instead, or
 * undefined when zod reads it (or the schema is validated by ajv by design, for its patterns, or
 * cannot be used at all). Compiles the validator once, as {@link remoteSchemaValidator} would, and
 * never throws: for a resolver to report the fallback when it lists the tool.
 */
export function remoteSchemaFallback(schema: object): string | undefined {
  try {
    remoteSchemaValidator('', schema);
  } catch {
    return undefined;
  }
  return unreadable.get(schema);
}

function compile(schema: object): RemoteSchemaValidator {
  const { hasPatterns } = checkRemoteSchema(schema);
  if (!hasPatterns) {
    let zodSchema: z.ZodType | undefined;
    try {
      zodSchema = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      // zod cannot read it back: ajv below can.
      unreadable.set(schema, messageOf(error).slice(0, 300));
    }
    if (zodSchema) {
      const readBack = zodSchema;
      return (value) => {
        const result = readBack.safeParse(value);
        return result.success ? undefined : formatIssues(result.error);
      };
    }
  }
  return ajvValidator(schema);
}

const re2Engine = Object.assign(
  (pattern: string) => {
    const expression = linearPattern(pattern);
    return { test: (text: string) => expression.test(text) };
  },
  { code: 're2js' },
);

function ajvValidator(schema: object): RemoteSchemaValidator {
  const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
  const ajv: Ajv = new (ajvClass())({
    strict: false,
    validateFormats: false,
    validateSchema: false,
    addUsedSchema: false,
    code: { regExp: re2Engine },
  });
  let validate: ReturnType<Ajv['compile']>;
  try {
    validate = ajv.compile(rest);
  } catch (error) {
    throw new ToolgateError('INVALID_DEFINITION', `the schema cannot be read: ${messageOf(error)}`);
  }
  return (value) => (validate(value) ? undefined : formatAjvErrors(validate.errors ?? []));
}

function formatAjvErrors(errors: readonly ErrorObject[]): string {
  if (errors.length === 0) return '(root): does not match the schema';
  return errors
    .map((error) => {
      const field =
        error.instancePath === ''
          ? '(root)'
          : error.instancePath
              .slice(1)
              .split('/')
              .map((part, index) => {
                const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
                return /^\d+$/.test(key) ? `[${key}]` : index === 0 ? key : `.${key}`;
              })
              .join('');
      const missing = error.keyword === 'required' ? ` (${String(error.params.missingProperty)})` : '';
      return `${field}: ${error.message ?? 'is invalid'}${missing}`;
    })
    .join('; ');
}
