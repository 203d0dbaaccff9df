/**
 * @toolgate/mcp-server/internal: what toolgate's own packages use of the server beyond its public
 * API — a tool as MCP lists it, a gate's output or failure as an MCP tool result (the gateway
 * answers with the same shapes), and the HTTP guard's pieces. Not part of the public API: it
 * changes without a major version.
 *
 * @module
 */
export { contentResult, errorResult, outputResult, toMcpTool } from './expose.js';
export { isLoopback, isWildcard, type Refusal, refuseRequest } from './http-guard.js';
