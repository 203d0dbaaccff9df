/**
 * The MCP 2026-07-28 era: what loads the SDK's 2.x server only when called (the 2.x server itself is
 * in `create-server.ts`, imported by `modernHandler` when it runs).
 *
 * @module
 */
export type { ModernServerOptions } from './create-server.js';
export {
  type ModernHttpHandler,
  type ModernHttpOptions,
  type ModernServerFactory,
  modernHttpHandler,
  type ToolInputSchemaOf,
} from './http-handler.js';
export { modernHandler } from './modern-handler.js';
export { type StdioErasOptions, serveStdioEras } from './stdio-eras.js';
