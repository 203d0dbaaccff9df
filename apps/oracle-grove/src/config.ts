import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { type AgentManifest, agentManifestSchema } from './agent-manifest.js';

/** The zod schema of a scenario file. */
export const scenarioSchema = z.strictObject({
  title: z.string().min(1),
  goal: z.string().min(1),
  seed: z.string().min(1),
  genesis: z.string().includes('{seed}', { message: 'must contain "{seed}"' }),
  cast: z.array(z.string().min(1)).min(1, 'must name at least one agent'),
  optionalCast: z.array(z.string().min(1)).default([]),
  turns: z.number().int().min(1),
  budget: z
    .strictObject({
      maxTurns: z.number().int().min(1).default(1000),
      maxEvents: z.number().int().min(1).default(100_000),
    })
    .default({ maxTurns: 1000, maxEvents: 100_000 }),
});

/** A validated scenario. */
export type Scenario = z.output<typeof scenarioSchema>;

/** A scenario with the manifests of every agent it can cast. */
export interface LoadedConfig {
  scenario: Scenario;
  agents: Map<string, AgentManifest>;
}

/** Where the demo's own config lives. */
export const defaultConfigDir = new URL('../config', import.meta.url).pathname;

/**
 * Loads `scenarios/<name>.yaml` and the manifest of every agent it names from `agents/<agent>.yaml`.
 * Every error names the file, the line and the field.
 */
export async function loadConfig(configDir = defaultConfigDir, name = 'oracle-grove'): Promise<LoadedConfig> {
  const scenario = await loadYaml(join(configDir, 'scenarios', `${name}.yaml`), scenarioSchema);
  const agents = new Map<string, AgentManifest>();
  for (const agent of new Set([...scenario.cast, ...scenario.optionalCast])) {
    const file = join(configDir, 'agents', `${agent}.yaml`);
    const manifest = await loadYaml(file, agentManifestSchema);
    if (manifest.name !== agent) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `${shown(file)}: name: is "${manifest.name}" but the scenario casts it as "${agent}"; make them match`,
      );
    }
    agents.set(agent, manifest);
  }
  return { scenario, agents };
}

/** Reads a YAML file and validates it, reporting `file:line: field: problem`. */
export async function loadYaml<Schema extends z.ZodType>(
  file: string,
  schema: Schema,
): Promise<z.output<Schema>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ToolgateError('INVALID_DEFINITION', `${shown(file)}: cannot read it (${code}); check the path`);
  }
  return parseYamlText(text, file, schema);
}

/** Validates YAML text against a schema, reporting `file:line: field: problem`. */
export function parseYamlText<Schema extends z.ZodType>(
  text: string,
  file: string,
  schema: Schema,
): z.output<Schema> {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const [syntax] = document.errors;
  if (syntax) {
    const line = syntax.linePos?.[0].line ?? 1;
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `${shown(file)}:${line}: not valid YAML: ${syntax.message}`,
    );
  }
  const result = schema.safeParse(document.toJS());
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const path = [...issue.path, key];
        return `${shown(file)}:${lineOf(document, lines, path)}: ${path.map(String).join('.')}: unknown field`;
      });
    }
    const field = issue.path.length ? issue.path.map(String).join('.') : '(file)';
    return [`${shown(file)}:${lineOf(document, lines, issue.path)}: ${field}: ${issue.message}`];
  });
  throw new ToolgateError('INVALID_DEFINITION', problems.join('\n'));
}

function lineOf(
  document: ReturnType<typeof parseDocument>,
  lines: LineCounter,
  path: readonly PropertyKey[],
): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? document.contents : document.getIn(path.slice(0, depth) as unknown[], true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

function shown(file: string): string {
  const relativePath = relative(process.cwd(), file);
  return relativePath.startsWith('..') ? file : relativePath;
}
