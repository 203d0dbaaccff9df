/**
 * @toolgate/ai-sdk: a granted toolgate `AgentHandle` as Vercel AI SDK tools, keeping the gate's
 * guarantees inside `generateText` / `streamText`: grants, policy and approvals, order, the ledger,
 * cancellation and content parts.
 *
 * @module
 */

export { type AgentToolCall, type AgentToolOptions, agentTool } from './agent-tool.js';
export { type AiSdkToolsOptions, aiSdkTools, type GatedTool, type GatedToolSet } from './ai-sdk-tools.js';
export { type AiSdkLoopOptions, type AiSdkLoopSettings, aiSdkLoopOptions } from './loop-options.js';
