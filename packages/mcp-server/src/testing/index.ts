/**
 * @toolgate/mcp-server/testing: start the built `toolgate-mcp --http` on a free loopback port, for
 * tests of clients (such as @toolgate/mcp-client) against the real server.
 *
 * @module
 */
export { cliPath, type HttpChild, startHttpCli } from './http-cli.js';
