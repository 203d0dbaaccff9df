import { ToolRegistry } from '@toolgate/core';
import type { ReplaySession } from './session.js';

/**
 * A registry with no tool of its own: every tool is the replay's, so nothing runs and every result
 * comes from the recording, while prompts can still describe the tools.
 *
 * @example
 * const gate = new ToolGate(replayRegistry(replay), replay.gateOptions({ recorder, callIds }));
 */
export function replayRegistry(session: ReplaySession): ToolRegistry {
  return new ToolRegistry().setResolver(session);
}
