/**
 * @toolgate/openai-agents: a granted toolgate `AgentHandle` as OpenAI Agents JS function tools,
 * keeping grants, policy, approvals, order, cancellation and the ledger.
 *
 * @module
 */

export { type AgentToolOptions, agentTool } from './agent-tool.js';
export {
  type AgentsToolsOptions,
  agentsTools,
  type GatedAgentsTools,
  type GatedRunOptions,
} from './agents-tools.js';
export type { AsToolOptions } from './as-tool.js';
export { type AgentsOutputPart, errorText, modelOutput } from './model-output.js';
export type { Strictness } from './strict-tool.js';
