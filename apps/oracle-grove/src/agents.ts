import type { AgentHandle, JsonObject, ToolResult } from '@toolgate/core';
import { ToolgateError } from '@toolgate/core';
import type { LedgerEvent } from '@toolgate/ledger';
import type { AgentManifest } from './agent-manifest.js';
import type { Model } from './model.js';

/** What an agent sees on its turn. */
export interface AgentContext {
  manifest: AgentManifest;
  /** The agent's only way to its tools: a handle bound to its manifest. */
  tools: AgentHandle;
  model: Model;
  /** The latest events of the kinds it subscribes to, oldest first. */
  recent: readonly LedgerEvent[];
  /** The text of the latest `world.observed`. */
  scene: string;
}

/** What an agent does on its turn: one event it emits. */
export interface AgentAction {
  kind: string;
  payload: JsonObject;
}

/** An agent's behaviour, named by its manifest's `handler`. */
export type Handler = (context: AgentContext) => Promise<AgentAction>;

/** Describes the grove: persona + recent events → the model's text, as `world.observed`. */
const generic: Handler = async (context) => {
  const text = await context.model.complete({
    agent: context.manifest.name,
    system: context.manifest.persona ?? '',
    prompt: await buildPrompt(context, 'Say what happens in the grove now.'),
  });
  return { kind: context.manifest.emits?.[0] ?? 'world.observed', payload: { text } };
};

/**
 * Asks the oracle with the current scene as the seed, weaves the omen into its prompt, and records
 * the omen on its `oracle.spoke` payload. Without a grant for `oracle` the call is refused by the
 * runtime and the turn fails.
 */
const fortuneTeller: Handler = async (context) => {
  const result = await context.tools.callTool('oracle', { seed: context.scene });
  const omen = omenOf(result);
  const text = await context.model.complete({
    agent: context.manifest.name,
    system: context.manifest.persona ?? '',
    prompt: await buildPrompt(context, `The oracle answered: ${omen}\nSpeak the omen to the travellers.`),
  });
  return { kind: 'oracle.spoke', payload: { text, omen } };
};

function omenOf(result: ToolResult): string {
  if (result.isError) throw new ToolgateError(result.error.code, result.error.message);
  const omen = (result.output as { omen?: unknown } | null)?.omen;
  if (typeof omen !== 'string') {
    throw new ToolgateError(
      'TOOL_FAILED',
      `the oracle answered without an omen: ${JSON.stringify(result.output)}`,
    );
  }
  return omen;
}

/** The handlers a manifest's `handler` may name. */
export const handlers: Readonly<Record<string, Handler>> = {
  generic,
  'fortune-teller': fortuneTeller,
};

/** The prompt: recent events, the AVAILABLE TOOLS block (only with grants), and the task. */
export async function buildPrompt(context: AgentContext, task: string): Promise<string> {
  const events = context.recent.map((event) => `- [${event.kind}] ${event.actor}: ${textOf(event)}`);
  const tools = await context.tools.availableToolsBlock();
  return [`RECENT EVENTS\n${events.join('\n')}`, tools, task].filter((part) => part !== '').join('\n\n');
}

/** The text an event carries, for prompts and the story. */
export function textOf(event: LedgerEvent): string {
  const payload = event.payload as { text?: unknown } | null;
  return typeof payload?.text === 'string' ? payload.text : JSON.stringify(event.payload);
}
