/**
 * @toolgate/environment/testing: the worlds the security suites attack, for any package that tests
 * tools over an Environment — a temporary workspace with hostile symlinks beside a sibling-prefix
 * directory and an outside secret, a real HTTP server on 127.0.0.1 that records its requests, and
 * the attacker of the symlink-race tests (a process swapping a directory with a link leading out).
 *
 * @module
 */
export { type LocalServer, startServer } from './http-server.js';
export {
  giveToSandboxUser,
  processesWithArgument,
  sandboxSkipReason,
  sandboxTestUser,
} from './sandbox-support.js';
export { type Swapper, startSwapper } from './swapper.js';
export { makeWorld, type TempWorld } from './world.js';
