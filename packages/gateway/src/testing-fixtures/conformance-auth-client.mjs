#!/usr/bin/env node
// The MCP conformance suite's client under test for its auth/* client scenarios: the built
// `toolgate-gateway` (stdio), whose one upstream is the scenario's server behind OAuth. The suite
// runs `node conformance-auth-client.mjs <server-url>` with the scenario in MCP_CONFORMANCE_SCENARIO
// and the client's registration in MCP_CONFORMANCE_CONTEXT (client_id with client_secret, or with
// private_key_pem for private_key_jwt). This writes the config a user would — the upstream's url and
// `oauth: { client_id, client_secret_env | client_assertion_key_file }`, no issuer or
// token_endpoint, so the gateway discovers the authorization server from the upstream's 401 — starts
// the gateway with it, connects a real SDK client, lists the tools and calls each, then stops it.
// Scenarios that give no credentials (they test a refusal before any token request) get made-up
// ones. Exits non-zero when a step fails (the gateway's stderr is passed through).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const url = process.argv.at(-1);
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const cli = join(dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'toolgate-conformance-auth-'));
const env = { PATH: process.env.PATH ?? '' };
const oauth = { client_id: context.client_id ?? 'conformance-client' };
if (context.private_key_pem !== undefined) {
  writeFileSync(join(dir, 'client-key.pem'), context.private_key_pem, { mode: 0o600 });
  oauth.client_assertion_key_file = './client-key.pem';
} else {
  env.UPSTREAM_CLIENT_SECRET = context.client_secret ?? 'conformance-client-secret';
  oauth.client_secret_env = 'UPSTREAM_CLIENT_SECRET';
}
writeFileSync(
  join(dir, 'gateway.yaml'),
  `servers:
  upstream: { url: ${JSON.stringify(url)}, oauth: ${JSON.stringify(oauth)} }
clients:
  suite: { tools: ["*"] }
stdio: suite
policy: { default: allow, rules: [] }
ledger: ./ledger.jsonl
new_tools: allow
`,
);
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, '--config', join(dir, 'gateway.yaml')],
  env,
  stderr: 'inherit',
});
const client = new Client({ name: 'conformance-auth-client', version: '1.0.0' });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  if (tools.length === 0) throw new Error('the gateway serves no tool of the upstream');
  for (const tool of tools) {
    const result = await client.callTool({ name: tool.name, arguments: {} });
    process.stderr.write(`${tool.name}: ${JSON.stringify(result).slice(0, 300)}\n`);
    if (result.isError) throw new Error(`${tool.name} answered an error`);
  }
} finally {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
}
