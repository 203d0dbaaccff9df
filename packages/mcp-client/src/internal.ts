/**
 * @toolgate/mcp-client/internal: what toolgate's own packages use of the client beyond its public
 * API — mapping an MCP tool result to a gate output, as `MCPResolver` does, and the error a server
 * that does not offer the revision its config demands fails the connect with (the gateway names
 * the config key). Not part of the public API: it changes without a major version.
 *
 * @module
 */
export { mapResult } from './tools/index.js';
export { ModernEraRefused } from './transport/modern-era.js';
