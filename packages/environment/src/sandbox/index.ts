export type { EgressDestination, EgressJudge } from './egress-proxy.js';
export { SandboxEnvironment, type SandboxEnvironmentOptions } from './sandbox-environment.js';
export { defaultSandboxLimits, type SandboxLimits } from './sandbox-limits.js';
export type { SandboxUser } from './sandbox-user.js';
