import type { AnyAgent } from './handoffs.js';

/** The agents already checked, so each is warned about at most once a process. */
const checked = new WeakSet<AnyAgent>();

/**
 * Warns (a Node process warning, `TOOLGATE_UNGATED_AGENT_TOOL`) once per agent holding gated tools
 * when its `tools` also hold Agents' own `agent.asTool()` tool (a function tool with `on`, as
 * `asTool` returns it): the calls of that agent tool go around the gate, unjudged and unrecorded.
 * Not a refusal: native tools beside gated ones are the app's choice, but this one is easily a
 * mistake, and `agentTool({ asTool })` is its gated form.
 */
export function warnUngatedAgentTools(agent: AnyAgent): void {
  if (checked.has(agent)) return;
  checked.add(agent);
  for (const tool of agent.tools) {
    if (tool.type !== 'function' || typeof (tool as { on?: unknown }).on !== 'function') continue;
    process.emitWarning(
      `agent "${agent.name}" holds Agents' agent tool "${tool.name}" (agent.asTool()) directly: its ` +
        'calls go around the gate, unjudged and unrecorded. Register agentTool({ asTool, tools }) in ' +
        `the gate's registry, grant "${tool.name}", and give the agent agentsTools(handle).tools instead`,
      { code: 'TOOLGATE_UNGATED_AGENT_TOOL' },
    );
  }
}
