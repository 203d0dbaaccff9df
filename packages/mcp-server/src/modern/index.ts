export { createModernMcpServer, type ModernServerOptions, toolListTtlMs } from './create-server.js';
export { type ModernHttpHandler, modernHttpHandler } from './http-handler.js';
