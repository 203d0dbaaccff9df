import type { JsonObject, PolicyRequest } from '@toolgate/core';
import { parseCommandLine } from '@toolgate/core/command-line';
import { loadPolicyFiles, type PolicyFiles } from '../policy-files.js';
import { type CliIo, exitCodes, loadFailure, usageFailure } from './main.js';

/** Runs `toolgate policy explain FILE… --call JSON`: the verdict and every rule that judged each resource. */
export async function explainCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let files: string[];
  let request: PolicyRequest;
  let json = false;
  try {
    const { values, positionals } = parseCommandLine(argv, {
      options: { call: { type: 'string' }, json: { type: 'boolean' } },
      positionals: true,
    });
    files = positionals;
    json = values.json === true;
    if (files.length === 0) throw new Error('"policy explain" needs at least one policy FILE or directory');
    if (values.call === undefined) throw new Error('"policy explain" needs --call JSON, the call to explain');
    request = requestOf(values.call);
  } catch (error) {
    return usageFailure(io, `policy explain: ${(error as Error).message}`);
  }
  let loaded: PolicyFiles;
  try {
    loaded = loadPolicyFiles(files);
  } catch (error) {
    return loadFailure(io, 'explain', error);
  }
  const explanation = loaded.policy.explain(request);
  if (json) {
    io.stdout.write(`${JSON.stringify(explanation, null, 2)}\n`);
    return exitCodes.ok;
  }
  const { verdict } = explanation;
  const by =
    verdict.rule === undefined
      ? 'the default'
      : `rule ${verdict.rule}${verdict.layer ? ` of layer ${verdict.layer}` : ''}`;
  io.stdout.write(`${verdict.decision} (${by}): ${verdict.reason}\n`);
  for (const resource of explanation.resources) {
    io.stdout.write(`${resource.resource}:\n`);
    if (resource.judgedBy.length === 0) io.stdout.write('  no rule judged it (the default decides)\n');
    for (const rule of resource.judgedBy)
      io.stdout.write(
        `  ${rule.layer === undefined ? '' : `${rule.layer} `}rule ${rule.rule}: ${rule.text}\n`,
      );
  }
  return exitCodes.ok;
}

const fields = new Set(['tool', 'parameters', 'agent', 'agentPath', 'client', 'subject']);

function requestOf(text: string): PolicyRequest {
  let call: unknown;
  try {
    call = JSON.parse(text);
  } catch (error) {
    throw new Error(`--call is not JSON (${(error as Error).message}): give {"tool": NAME, …}`);
  }
  if (call === null || typeof call !== 'object' || Array.isArray(call))
    throw new Error('--call must be a JSON object: {"tool": NAME, …}');
  const given = call as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !fields.has(key));
  if (unknown.length > 0)
    throw new Error(`--call has unknown field(s) ${unknown.join(', ')}; known: ${[...fields].join(', ')}`);
  if (typeof given.tool !== 'string' || given.tool === '')
    throw new Error('--call needs "tool", a tool name');
  const request: PolicyRequest = {
    tool: given.tool,
    agent: typeof given.agent === 'string' ? given.agent : 'agent',
    parameters: (given.parameters ?? {}) as JsonObject,
  };
  if (typeof given.agentPath === 'string') request.agentPath = given.agentPath;
  if (typeof given.client === 'string') request.client = given.client;
  if (given.subject !== undefined) request.subject = given.subject as NonNullable<PolicyRequest['subject']>;
  return request;
}
