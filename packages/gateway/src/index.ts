/**
 * @toolgate/gateway: upstream MCP servers behind per-client grants, the policy gate, tool pinning
 * and a verified ledger, served to any MCP client over stdio and streamable HTTP
 * (`toolgate-gateway`).
 *
 * @module
 */
export { approveTool } from './approve.js';
export { loadConfig } from './config-load.js';
export { type GatewayConfigFile, gatewayConfigSchema } from './config-schema.js';
export type { GatewayClient, GatewayConfig } from './config-types.js';
export type { FleetSettings, GatewayFleet, PendingApproval } from './fleet/index.js';
export { Gateway } from './gateway.js';
export type { GatewayOptions } from './gateway-options.js';
export { grantMatcher } from './grants.js';
export { replayGatewayLedger } from './replay.js';
export { toCallToolResult } from './result.js';
export {
  checkTokens,
  defaultMaxSessionsPerClient,
  defaultSessionIdleMs,
  type GatewayHttpEndpoint,
  type GatewayHttpOptions,
  serveGatewayHttp,
} from './serve-http.js';
export { createSessionServer } from './session-server.js';
export { checkServable, loadServableConfig, type ServeMode } from './start-checks.js';
export { expandVariables } from './variables.js';
