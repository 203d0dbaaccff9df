import {
  type AgentHandle,
  type Policy,
  ToolGate,
  type ToolGateOptions,
  ToolRegistry,
  type ToolResult,
} from '@toolgate/core';
import type { Environment } from '@toolgate/environment';
import { type BuiltinToolsOptions, builtinTools } from '../builtin-tools.js';

/** An agent granted all eight built-in tools over `environment`, behind a real gate (with `gateOptions`, when given). */
export function builtinAgent(
  environment: Environment,
  policy?: Policy,
  options?: BuiltinToolsOptions,
  gateOptions: ToolGateOptions = {},
): AgentHandle {
  const registry = new ToolRegistry();
  for (const tool of builtinTools(environment, options)) registry.register(tool);
  const gate = new ToolGate(registry, { ...gateOptions, ...(policy ? { policy } : {}) });
  return gate.forAgent({
    name: 'tester',
    tools: ['read_file', 'write_file', 'list_dir', 'glob', 'search_files', 'shell', 'fetch', 'oracle'],
  });
}

/** The output of a successful result; throws with the error otherwise. */
// biome-ignore lint/suspicious/noExplicitAny: tests read fields of outputs whose shapes they assert
export function outputOf(result: ToolResult): any {
  if (result.isError) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.output;
}

/** The error code of a result, or `ok`. */
export function codeOf(result: ToolResult): string {
  return result.isError ? result.error.code : 'ok';
}

/**
 * Calls `search_files` with `pattern` until it is answered, for up to a minute: the first search of
 * a process loads a search thread, and on a loaded machine that load can outlast a short search
 * deadline (the thread then goes on loading and joins the idle ones, so a later search finds it).
 */
export async function searchOnceStarted(agent: AgentHandle, pattern: string): Promise<ToolResult> {
  const giveUpAt = Date.now() + 60_000;
  for (;;) {
    const result = await agent.callTool('search_files', { pattern });
    const stillStarting =
      result.isError && result.error.message.includes('its search thread was still starting');
    if (!stillStarting || Date.now() > giveUpAt) return result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
