/**
 * @toolgate/mcp-server: the tools of a toolgate registry as an MCP server, over stdio and
 * streamable HTTP. The `toolgate-mcp` command serves the built-in tools.
 *
 * @module
 */
export { callerDeadline, callerTimeKey } from './caller-time.js';
export {
  createMcpServer,
  type ExposingGateOptions,
  exposedTools,
  exposingGate,
  type McpServerOptions,
} from './create-server.js';
export { defaultAllowedHosts, defaultAllowedOrigins, type HttpGuardOptions } from './http-guard.js';
export {
  type GuardedListener,
  type GuardedListenOptions,
  listenGuarded,
  sendBodyError,
  sendJsonRpcError,
} from './http-listen.js';
export {
  type ModernHttpHandler,
  type ModernHttpOptions,
  type ModernServerFactory,
  type ModernServerOptions,
  modernHandler,
  modernHttpHandler,
  type StdioErasOptions,
  serveStdioEras,
  type ToolInputSchemaOf,
} from './modern/index.js';
export { progressNotifier } from './progress-notifier.js';
export { BodyError, readJsonBody } from './read-body.js';
export { type RegistryOptions, registryFor, workspaceToolNames } from './registry-for.js';
export { type HttpEndpoint, type HttpServeOptions, serveHttp } from './serve-http.js';
export { type StdioEndpoint, type StdioServeOptions, serveStdio } from './serve-stdio.js';
