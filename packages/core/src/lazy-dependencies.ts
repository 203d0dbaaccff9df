import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type * as YamlModule from 'yaml';

// Both ship CommonJS, so they load synchronously through `require` at their first use: a process
// that never reads a policy's YAML text or validates a remote schema with ajv never loads them
// (importing them up front cost a demo's replay about as much as the replay itself).
const load = createRequire(import.meta.url);
let ajv: typeof AjvModule | undefined;
let yaml: typeof YamlModule | undefined;

/** The `Ajv` class, loaded at its first use. */
export function ajvClass(): typeof AjvModule.Ajv {
  ajv ??= load('ajv') as typeof AjvModule;
  return ajv.Ajv;
}

/** `yaml`'s `parse`, loaded at its first use. */
export function parseYaml(text: string): unknown {
  yaml ??= load('yaml') as typeof YamlModule;
  return yaml.parse(text);
}

/** `yaml`'s `parseDocument` (the document with its nodes' places), loaded at its first use. */
export function parseYamlDocument(text: string): YamlModule.Document.Parsed {
  yaml ??= load('yaml') as typeof YamlModule;
  return yaml.parseDocument(text);
}
