/**
 * How a server is reached: the connection (one MCP session, reconnected), stdio in a process group,
 * streamable HTTP with limited fetches, the notification guard and the failures a session reports.
 *
 * @module
 */
export { McpConnection } from './connection.js';
