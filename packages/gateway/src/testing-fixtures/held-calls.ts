import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { type GatewayHttpEndpoint, serveGatewayHttp } from '../serve-http.js';
import { tokens } from './gateway.js';
import { jsonRpcMessageOf, postModernCall } from './modern-call.js';

// Helpers of the held-call tests (modern/held-calls.test.ts): our 2025-11-25 conformance upstream,
// gateway instances in front of it, and raw 2026-07-28 calls.
export { modernRevision } from './modern-call.js';

const upstreamScript = join(import.meta.dirname, 'conformance-upstream.mjs');
/** The instances' environment: the clients' tokens and one state key for all. */
export const env = {
  DESKTOP_TOKEN: tokens.desktop,
  AGENT_TOKEN: tokens.agent,
  TOOLGATE_GATEWAY_STATE_KEY: 'a-state-key-shared-by-every-instance-0123456789',
};

/** Our 2025-11-25 upstream (the 1.x SDK's Server over streamable HTTP), whose tools ask mid-call. */
export async function startUpstream(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [upstreamScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the upstream exited (${code}): ${out}`)));
  });
  return { url, child };
}

/** A gateway in this process, serving HTTP. */
export interface Instance {
  gateway: Gateway;
  endpoint: GatewayHttpEndpoint;
}

/** A gateway instance named `name` in front of `upstream` (its config `extra` appended). */
export async function startInstance(
  dir: string,
  name: string,
  upstream: string,
  extra = '',
): Promise<Instance> {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    `servers:
  cf: { url: "${upstream}", prefix: cf }
clients:
  desktop: { token_env: DESKTOP_TOKEN, tools: ["cf__*"], sampling: allow }
  agent: { token_env: AGENT_TOKEN, tools: ["cf__*"] }
policy: { default: allow, rules: [] }
ledger: ./${name}.ledger.jsonl
new_tools: allow
${extra}`,
  );
  const gateway = await Gateway.start(await loadConfig(path, env), { log: () => undefined });
  return { gateway, endpoint: await serveGatewayHttp(gateway, { env, port: 0 }) };
}

/** One 2026-07-28 `tools/call` as raw JSON-RPC over HTTP: its HTTP status and JSON-RPC answer. */
export async function rawCall(
  url: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = { elicitation: {}, sampling: {}, roots: {} },
): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: Record<string, unknown> } }> {
  const response = await postModernCall(url, { arguments: {}, ...params }, { capabilities });
  const body = (await jsonRpcMessageOf(response)) as {
    result?: Record<string, unknown>;
    error?: Record<string, unknown>;
  };
  return { status: response.status, body };
}

/** The first round of a call whose upstream asks: its one request's key and its requestState. */
export async function firstRound(url: string, name: string): Promise<{ key: string; requestState: string }> {
  const { body } = await rawCall(url, { name });
  expect(body.result?.resultType).toBe('input_required');
  const [key] = Object.keys(body.result?.inputRequests as object);
  return { key: key!, requestState: body.result?.requestState as string };
}
