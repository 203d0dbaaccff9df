/**
 * @toolgate/mcp-server/testing: start the built `toolgate-mcp --http` on a free loopback port, or
 * serve a fetch handler (a 2.x SDK server) over node http, for tests of clients (such as
 * @toolgate/mcp-client and the gateway) against real servers.
 *
 * @module
 */
export { cliPath, type HttpChild, startHttpCli } from './http-cli.js';
export { type ServedFetch, serveFetchHandler } from './serve-fetch.js';
