import type { ContentPart } from './content.js';
import type { CallOptions } from './context.js';
import type { JsonValue } from './json.js';
import type { ToolErrorData } from './recorder.js';

/** The outcome of a call through an agent handle: an output, or an error the model can read. */
export type ToolResult =
  | {
      callId: string;
      tool: string;
      isError: false;
      output: JsonValue;
      /** Content parts beyond the output (images, audio, resources, more text), in order, each capped. */
      content?: ContentPart[];
      /** How long the call took, in ms, by the gate's clock. */
      durationMs: number;
    }
  | { callId: string; tool: string; isError: true; error: ToolErrorData; durationMs: number };

/** One call of a batch: what a model asked for in one turn. */
export interface ToolCall {
  name: string;
  parameters?: unknown;
  /**
   * This call's own options (its signal, its `decision`), in place of the batch's. A framework
   * adapter uses them: each call of a step has its own abort signal and approval answer.
   */
  options?: CallOptions;
}
