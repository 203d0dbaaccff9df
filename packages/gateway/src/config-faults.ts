import { ToolgateError } from '@toolgate/core';
import { formatIssue, policyDocumentSchema } from '@toolgate/core/internal';
import { ZodError, type z } from 'zod';
import type { GatewayConfigFile } from './config-schema.js';

/** The line of a key of the config file (its path from the top; `key`, an unknown key there), if known. */
export type LineAt = (path: readonly PropertyKey[], key?: string) => number | undefined;

/** A config error: `gateway.yaml:12: message`, in the words of the config file. */
export function fault(source: string, line: number | undefined, message: string): ToolgateError {
  return new ToolgateError(
    'INVALID_DEFINITION',
    `${source}${line === undefined ? '' : `:${line}`}: ${message}`,
  );
}

/** The first five issues of a config that does not fit the schema, each at its line. */
export function issuesFault(source: string, error: z.ZodError, lineAt: LineAt): ToolgateError {
  const messages = error.issues.slice(0, 5).map((issue) => {
    const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const line = lineAt(issue.path, unknownKey);
    return `${source}${line === undefined ? '' : `:${line}`}: ${formatIssue(issue)}`;
  });
  return new ToolgateError('INVALID_DEFINITION', `the gateway config is not valid:\n${messages.join('\n')}`);
}

/**
 * The issues of a config with an inline policy that is not a policy document told as the policy
 * schema's own (`policy.rules[0]: unknown key "decison"`), not zod's bare "Invalid input" of the
 * union of a path and a document.
 */
export function policyIssues(error: z.ZodError, policy: unknown): z.ZodError {
  if (typeof policy !== 'object' || policy === null) return error;
  const inline = policyDocumentSchema.safeParse(policy);
  if (inline.success) return error;
  const others = error.issues.filter((issue) => issue.path[0] !== 'policy');
  const nested = inline.error.issues.map((issue) => ({ ...issue, path: ['policy', ...issue.path] }));
  return new ZodError([...nested, ...others] as z.core.$ZodIssue[]);
}

/** Each `"<prefix>:<uri glob>"` of a client's `resources` names an upstream, by its prefix or its name. */
export function checkResourceGrants(file: GatewayConfigFile, source: string, lineAt: LineAt): void {
  const keys = new Set(Object.entries(file.servers).map(([name, server]) => server.prefix ?? name));
  for (const [name, client] of Object.entries(file.clients)) {
    for (const [index, pattern] of (client.resources ?? []).entries()) {
      const key = pattern.slice(0, pattern.indexOf(':'));
      if (keys.has(key)) continue;
      throw fault(
        source,
        lineAt(['clients', name, 'resources', index]),
        `clients.${name}.resources[${index}]: no upstream has the prefix (or, without one, the name) ${JSON.stringify(key)}; begin the pattern with one of: ${[...keys].join(', ')}`,
      );
    }
  }
}
