import { builtinTools, oracleTool, shellSubject } from '@toolgate/builtins';
import { hostSubject, pathSubject } from '@toolgate/builtins/internal';
import type { JsonObject, JsonValue, PolicySubject, Tool } from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import type { McpServerConfig, SubjectMapping } from '../server-config.js';

/** Computes what a call of a server's tool (by its own name) touches; undefined when unknown. */
export type SubjectFunction = (
  remoteName: string,
  parameters: JsonObject,
) => Promise<PolicySubject | undefined>;

const cache = new WeakMap<McpServerConfig, SubjectFunction | null>();

/**
 * The subject function of a server, from its config alone (`subjects` and `root`); undefined when
 * the config declares none. Nothing the server says about itself is read.
 */
export function subjectsFor(config: McpServerConfig): SubjectFunction | undefined {
  let found = cache.get(config);
  if (found === undefined) {
    found = build(config) ?? null;
    cache.set(config, found);
  }
  return found ?? undefined;
}

function build(config: McpServerConfig): SubjectFunction | undefined {
  const { subjects, root } = config;
  if (subjects === undefined) return undefined;
  const environment = lazyEnvironment(root);
  if (subjects === 'toolgate') return toolgateSubjects(environment);
  return async (remoteName, parameters) => {
    if (!Object.hasOwn(subjects, remoteName)) return undefined;
    return mappedSubject(subjects[remoteName]!, parameters, environment);
  };
}

/** A LocalEnvironment over `root`, loaded on first use (so a config without paths never loads it). */
function lazyEnvironment(root: string | undefined): (() => Promise<Environment>) | undefined {
  if (root === undefined) return undefined;
  let pending: Promise<Environment> | undefined;
  return () => {
    pending ??= import('@toolgate/environment').then(
      ({ LocalEnvironment }) => new LocalEnvironment({ root }),
    );
    return pending;
  };
}

/**
 * `toolgate-mcp`'s built-in tools, with the very `policySubject` they have in-process: the same
 * parameter checks and defaults, paths resolved against `root` through symlinks, parsed commands
 * and hosts. Without a root only the oracle (which touches nothing) is known.
 */
function toolgateSubjects(environment: (() => Promise<Environment>) | undefined): SubjectFunction {
  let tools: Promise<Map<string, Tool>> | undefined;
  const load = async () => {
    const known = new Map<string, Tool>([['oracle', oracleTool() as unknown as Tool]]);
    if (environment) {
      for (const tool of builtinTools(await environment())) known.set(tool.name, tool);
    }
    return known;
  };
  return async (remoteName, parameters) => {
    tools ??= load();
    const tool = (await tools).get(remoteName);
    if (!tool?.policySubject) return undefined;
    let valid: unknown;
    try {
      valid = tool.parse(parameters);
    } catch {
      return undefined; // not the parameters toolgate's tool takes: whatever it is, it is unknown
    }
    return tool.policySubject(valid as never);
  };
}

async function mappedSubject(
  mapping: SubjectMapping,
  parameters: JsonObject,
  environment: (() => Promise<Environment>) | undefined,
): Promise<PolicySubject | undefined> {
  const paths: string[] = [];
  const commands: string[][] = [];
  const hosts: string[] = [];
  for (const name of mapping.paths ?? []) {
    const values = texts(parameters[name]);
    if (values === undefined || environment === undefined) return undefined;
    const resolved = await environment();
    for (const value of values) paths.push(...((await pathSubject(resolved, value)).paths ?? []));
  }
  for (const name of mapping.commands ?? []) {
    const values = texts(parameters[name]);
    if (values === undefined) return undefined;
    for (const value of values) {
      const line = shellSubject(value);
      commands.push(...line.commands);
      // A file the line redirects to is judged by path rules, resolved against the server's root.
      if (line.paths.length > 0 && environment === undefined) return undefined;
      for (const path of line.paths)
        paths.push(...((await pathSubject(await environment!(), path)).paths ?? []));
    }
  }
  for (const name of mapping.urls ?? []) {
    const values = texts(parameters[name]);
    if (values === undefined) return undefined;
    for (const value of values) hosts.push(...(hostSubject(value).hosts ?? []));
  }
  return {
    ...(paths.length > 0 ? { paths } : {}),
    ...(commands.length > 0 ? { commands } : {}),
    ...(hosts.length > 0 ? { hosts } : {}),
  };
}

/** A parameter's text values: one string, or an array of strings; undefined for anything else. */
function texts(value: JsonValue | undefined): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  return undefined;
}
