/**
 * @toolgate/environment/testing: the worlds the security suites attack, for any package that tests
 * tools over an Environment — a temporary workspace with hostile symlinks beside a sibling-prefix
 * directory and an outside secret, and a real HTTP server on 127.0.0.1 that records its requests.
 *
 * @module
 */
export { type LocalServer, startServer } from './http-server.js';
export { processesWithArgument, sandboxSkipReason } from './sandbox-support.js';
export { makeWorld, type TempWorld } from './world.js';
