/**
 * @toolgate/mcp-client: MCP servers (stdio, streamable HTTP) as a toolgate `ToolResolver`, and the
 * `MCP_SERVERS` / `MCP_ORACLE` config gate. The grant check runs in core before any transport here
 * is touched.
 *
 * @module
 */

export { oracleOverMcp, resolverFromEnv, serversFromEnv, toolgateMcpPath } from './from-env.js';
export { defaultLimits, type McpLimits, type ResolvedLimits } from './limits.js';
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
export { fingerprint, type ToolShape } from './tools/fingerprint.js';
export { listToolPages, maxToolPages } from './tools/list-tools.js';
export { mapResult } from './tools/map-result.js';
export { outputSchemasNotValidated } from './tools/output-validator.js';
export { RemoteToolFailure, remoteToolFailure } from './tools/remote-error.js';
export { canRecordChanges, type ToolChange, type ToolChangeRecorder } from './tools/tool-change.js';
export type { WithheldTool } from './tools/tool-list.js';
export { McpConnection, type ToolsListener } from './transport/connection.js';
