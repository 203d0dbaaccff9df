import type { Recorder, ToolDescription } from '@toolgate/core';
import type { ToolChangedRecord } from '@toolgate/core/internal';

/** A recorder, and optionally a sink for tool changes (the MCP client's records, not the gate's). */
export type ObservedRecorder = Recorder & {
  toolChanged?(record: ToolChangedRecord): void | Promise<void>;
};

/**
 * `strict`: the replay must make exactly the recorded calls in the recorded order; the first call,
 * decision or result that differs throws REPLAY_DIVERGED (the call fails loudly, naming the seq and
 * the difference). `lenient`: calls are matched by agent, tool, canonical parameters and occurrence
 * in any order; a call with no recording returns a REPLAY_DIVERGED error result the model can read.
 */
export type ReplayMode = 'strict' | 'lenient';

/** What a {@link ReplaySession} is built with. */
export interface ReplayOptions {
  /** Default `strict`. */
  mode?: ReplayMode;
  /** Replay only this run of the ledger. Default: every event given. */
  runId?: string;
  /**
   * The descriptions of the replayed tools, for prompts (`toolSchemas`, `availableToolsBlock`).
   * Default: the recording's `tools.described` events; a tool in neither is described minimally.
   */
  tools?: readonly ToolDescription[];
}

/** A difference between the replay and the recording. */
export interface Divergence {
  /** The seq of the recorded event that differs (or where the recording ends). */
  readonly seq: number;
  readonly message: string;
}
