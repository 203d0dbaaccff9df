/**
 * @toolgate/mcp-client: MCP servers (stdio, streamable HTTP) as a toolgate `ToolResolver`, and the
 * `MCP_SERVERS` / `MCP_ORACLE` config gate. The grant check runs in core before any transport here
 * is touched.
 *
 * @module
 */
export { McpConnection, type ToolsListener } from './connection.js';
export { fingerprint, type ToolShape } from './fingerprint.js';
export { oracleOverMcp, resolverFromEnv, serversFromEnv, toolgateMcpPath } from './from-env.js';
export { defaultLimits, type ResolvedLimits, type WireLimits } from './limits.js';
export { listToolPages, maxToolPages } from './list-tools.js';
export { mapResult } from './map-result.js';
export { outputSchemasNotValidated } from './output-validator.js';
export { RemoteToolFailure, remoteToolFailure } from './remote-error.js';
export { MCPResolver, type MCPResolverOptions } from './resolver.js';
export { parseServerCommands } from './server-commands.js';
export {
  checkServerConfig,
  type HttpServerConfig,
  isStdioConfig,
  type McpServerConfig,
  type ServerLogEntry,
  type StdioServerConfig,
  type SubjectMapping,
} from './server-config.js';
export { canRecordChanges, type ToolChange, type ToolChangeRecorder } from './tool-change.js';
export type { WithheldTool } from './tool-list.js';
