#!/usr/bin/env node
// The MCP conformance suite's client under test: MCPResolver (the built package), as an app uses it,
// through a ToolGate. The suite runs `node conformance-client.mjs <server-url>` with the scenario in
// MCP_CONFORMANCE_SCENARIO (and, for some, the calls to make in MCP_CONFORMANCE_CONTEXT);
// MCPResolver negotiates the era itself (server/discover, else initialize), so
// MCP_CONFORMANCE_PROTOCOL_VERSION is not read. Exits non-zero when a step fails.
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { MCPResolver } from '../../dist/index.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
/** Scenarios whose server checks what the client does while calling each tool it lists. */
const callingEveryTool = new Set([
  'sse-retry',
  'http-invalid-tool-headers',
  'sep-2322-client-request-state',
  'elicitation-sep1034-client-defaults',
]);

// The user this client stands for accepts every elicitation and fills in nothing: what the server
// gets is the schema's defaults, which MCPResolver applies (SEP-1034). No roots, no sampling.
const onServerRequest = async (request) => {
  if (request.method === 'elicitation/create') return { action: 'accept', content: {} };
  if (request.method === 'roots/list') return { roots: [] };
  throw new Error(`this client does not answer ${request.method}`);
};

// Attaching sends the opening (server/discover, or initialize) and lists the tools.
const resolver = await MCPResolver.connect([{ name: 'conformance', url, onServerRequest }], {
  onChange: (change) => process.stderr.write(`${change.kind} ${change.tool}: ${change.reason ?? ''}\n`),
});
try {
  const registry = new ToolRegistry().setResolver(resolver);
  const tools = resolver.servedNames();
  const agent = new ToolGate(registry).forAgent({ name: 'conformance-client', tools });
  const call = async (tool, parameters) => {
    const result = await agent.callTool(tool, parameters);
    process.stderr.write(`${tool}: ${JSON.stringify(result).slice(0, 500)}\n`);
    return result;
  };
  if (Array.isArray(context.toolCalls)) {
    // A null argument is left out, as an app does: the gate refuses null where the schema wants a value.
    for (const { name, arguments: parameters } of context.toolCalls) {
      await call(
        name,
        Object.fromEntries(Object.entries(parameters ?? {}).filter(([, value]) => value !== null)),
      );
    }
  } else if (scenario === 'initialize' || scenario === 'tools_call') {
    if (tools[0] !== undefined) await call(tools[0], { a: 2, b: 3 });
  } else if (scenario === 'json-schema-2020-12-preservation') {
    const [focal] = await registry.descriptions(['json_schema_2020_12_tool']);
    if (focal === undefined) throw new Error('the server lists no json_schema_2020_12_tool');
    await call('json_schema_echo', { schema: focal.inputSchema });
  } else if (callingEveryTool.has(scenario)) {
    for (const description of await registry.descriptions(tools)) {
      await call(description.name, sampleArguments(description.inputSchema));
    }
  }
  // json-schema-ref-no-deref, request-metadata, http-standard-headers: the opening and the listing are the scenario
} finally {
  await resolver.close();
}

/** Arguments for a tool's required properties: a text, a number, a flag as each property's type says. */
function sampleArguments(schema) {
  const samples = { string: 'us-west1', integer: 1, number: 1, boolean: true };
  const properties = schema.properties ?? {};
  return Object.fromEntries(
    (schema.required ?? [])
      .filter((name) => Object.hasOwn(samples, properties[name]?.type))
      .map((name) => [name, samples[properties[name].type]]),
  );
}
