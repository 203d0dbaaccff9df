/**
 * Commands: a shell in its own process group, killed with every descendant at its end or timeout, only stdin, stdout and stderr reaching it, a scrubbed environment.
 *
 * @module
 */
export { commandStdio } from './exec-descriptors.js';
export { CappedBuffer, defaultInheritedVariables, execCommand, scrubbedEnvironment } from './local-exec.js';
