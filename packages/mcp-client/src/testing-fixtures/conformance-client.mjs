#!/usr/bin/env node
// The MCP conformance suite's client under test: MCPResolver (the built package), as an app uses it,
// through a ToolGate. The suite runs `node conformance-client.mjs <server-url>` with the scenario in
// MCP_CONFORMANCE_SCENARIO; MCPResolver negotiates the era itself (server/discover, else initialize),
// so MCP_CONFORMANCE_PROTOCOL_VERSION is not read. Exits non-zero when a step fails.
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { MCPResolver } from '../../dist/index.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
// Attaching sends the opening (server/discover, or initialize) and lists the tools.
const resolver = await MCPResolver.connect([{ name: 'conformance', url }]);
try {
  const registry = new ToolRegistry().setResolver(resolver);
  const tools = resolver.servedNames();
  const agent = new ToolGate(registry).forAgent({ name: 'conformance-client', tools });
  const call = async (tool, parameters) => {
    const result = await agent.callTool(tool, parameters);
    process.stderr.write(`${tool}: ${JSON.stringify(result).slice(0, 500)}\n`);
    return result;
  };
  if (scenario === 'initialize' || scenario === 'tools_call') {
    if (tools[0] !== undefined) await call(tools[0], { a: 2, b: 3 });
  } else if (scenario === 'json-schema-2020-12-preservation') {
    const [focal] = await registry.descriptions(['json_schema_2020_12_tool']);
    if (focal === undefined) throw new Error('the server lists no json_schema_2020_12_tool');
    await call('json_schema_echo', { schema: focal.inputSchema });
  }
  // json-schema-ref-no-deref, request-metadata: the opening and the listing are the scenario
} finally {
  await resolver.close();
}
