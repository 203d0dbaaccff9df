/**
 * @toolgate/builtins/internal: what toolgate's own packages use of the built-in tools beyond their
 * public API — the policy subjects of the file, pattern and fetch tools and the withholding of
 * what policy would refuse, so that `@toolgate/mcp-client` computes them for toolgate-mcp's tools
 * with the very code that computes them in-process. Not part of the public API: it changes without
 * a major version.
 *
 * @module
 */
export { hostSubject } from './fetch.js';
export { policyWithholds } from './path-policy.js';
export { pathSubject, patternSubject } from './path-subject.js';
export { withholdFromOutput } from './pattern-output.js';
