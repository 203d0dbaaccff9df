import type { RunContext } from '@openai/agents';

/** A function call as the model sent it: the tool's name and the arguments' JSON text. */
export interface ModelCall {
  name: string;
  arguments: unknown;
}

/** How many calls of one run are kept unread at most (the oldest go first). */
const keptCalls = 256;

const calls = new WeakMap<object, Map<string, ModelCall>>();

interface Validating {
  _validateToolInvocation?: (agent: unknown, toolName: string, rawItem: unknown) => unknown;
}

/**
 * Watches the function calls the model makes in the run of `runContext`, by call id, so the gate
 * gets the arguments of a call Agents answers itself: Agents 0.20 hands its `toolErrorFormatter`
 * the name and call id of a call to a tool the agent was not given, never its arguments. Agents
 * checks every tool call of a model response through the run context's `_validateToolInvocation`
 * (its own, marked internal) before it runs any of them; the watch sees each call there and passes
 * it on unchanged. Where a later Agents has no such method nothing is seen, and a refusal is
 * recorded without its arguments, as before (the adapter's tests fail on such an Agents).
 */
export function watchModelCalls(runContext: RunContext): void {
  if (calls.has(runContext)) return;
  const seen = new Map<string, ModelCall>();
  calls.set(runContext, seen);
  const target = runContext as unknown as Validating;
  const validate = target._validateToolInvocation;
  if (typeof validate !== 'function') return;
  target._validateToolInvocation = function (this: unknown, agent, toolName, rawItem) {
    const raw = rawItem as { type?: unknown; callId?: unknown; name?: unknown; arguments?: unknown };
    if (raw?.type === 'function_call' && typeof raw.callId === 'string' && typeof raw.name === 'string') {
      seen.delete(raw.callId);
      seen.set(raw.callId, { name: raw.name, arguments: raw.arguments });
      if (seen.size > keptCalls) seen.delete(seen.keys().next().value as string);
    }
    return validate.call(this, agent, toolName, rawItem);
  };
}

/** The call the model made under `callId` in the run of `runContext`, when the watch saw it. */
export function modelCall(runContext: object, callId: string): ModelCall | undefined {
  return calls.get(runContext)?.get(callId);
}

/** The id of the last call of `tool` the model made in the run of `runContext`, when the watch saw one. */
export function lastCallOf(runContext: object, tool: string): string | undefined {
  const seen = calls.get(runContext);
  if (seen === undefined) return undefined;
  let last: string | undefined;
  for (const [callId, call] of seen) if (call.name === tool) last = callId;
  return last;
}

/** A function call's arguments as the model sent them: JSON text, parsed; what is not JSON, as the text. */
export function parsedArguments(text: unknown): unknown {
  if (typeof text !== 'string') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
