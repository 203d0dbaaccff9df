import { generateText, type ModelMessage, stepCountIs } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';
import type { GatedToolSet } from '../ai-sdk-tools.js';
import { aiSdkLoopOptions } from '../loop-options.js';

/**
 * One real `generateText` loop over `tools` with their loop options (as aiSdkTools is meant to be
 * used), from a prompt or a message list, stopping after `steps` steps (default 3).
 */
export function runLoop(
  model: MockLanguageModelV4,
  tools: GatedToolSet,
  input: { prompt: string } | { messages: ModelMessage[] },
  steps = 3,
): ReturnType<typeof generateText<GatedToolSet>> {
  return generateText({ model, tools, ...aiSdkLoopOptions(tools), ...input, stopWhen: stepCountIs(steps) });
}

/** The user's answer to the AI SDK approval request `approvalId`, as the tool message to send next. */
export function approvalAnswer(approvalId: string, approved: boolean, reason: string): ModelMessage {
  return { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved, reason }] };
}
