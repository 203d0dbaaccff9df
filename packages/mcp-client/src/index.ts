/**
 * @toolgate/mcp-client: MCP servers (stdio, streamable HTTP) as a toolgate `ToolResolver`. The
 * grant check runs in core before any transport here is touched.
 *
 * @module
 */
export { defaultLimits, type ResolvedLimits, type WireLimits } from './limits.js';
export { MCPResolver } from './resolver.js';
export type { MCPResolverOptions } from './resolver-options.js';
export type {
  HttpServerConfig,
  McpProtocol,
  McpServerConfig,
  ServerLogEntry,
  StdioServerConfig,
  SubjectMapping,
} from './server-config.js';
export {
  httpServerConfigSchema,
  mcpServerConfigSchema,
  stdioServerConfigSchema,
  subjectMappingSchema,
  wireLimitsSchema,
} from './server-config-schema.js';
export type { ReviewedTool } from './surface/index.js';
export {
  fingerprint,
  outputSchemasNotValidated,
  RemoteToolFailure,
  type ToolChange,
  type ToolChangeRecorder,
  type ToolExtras,
  type ToolShape,
  type WithheldTool,
} from './tools/index.js';
