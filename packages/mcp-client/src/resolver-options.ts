import type { ReviewedTool } from './surface/index.js';
import type { ToolChange, ToolChangeRecorder } from './tools/tool-change.js';

/** What an {@link MCPResolver} is built with. */
export interface MCPResolverOptions {
  /** Told about every changed or conflicting tool. */
  onChange?: (change: ToolChange) => void;
  /** Records every change when it has a `toolChanged` method (a ledger recorder, say). */
  recorder?: ToolChangeRecorder;
  /**
   * How the refusal of a changed tool tells its reader to approve it, in the words of the tool
   * they hold (the gateway: `toolgate-gateway approve NAME --config FILE`). Default: `resolver.approve(…)`.
   */
  approveHint?: (tool: string) => string;
  /**
   * Definitions reviewed before this resolver started (a gateway's lock file), by local tool name:
   * a listed tool that differs from its review is withheld until approved, as a change is.
   */
  reviewed?: ReadonlyMap<string, ReviewedTool>;
  /**
   * What to do with a tool no review names (with `reviewed` given): `withhold` it until approved,
   * or `allow` it (approved as first listed). Default `allow`.
   */
  newTools?: 'allow' | 'withhold';
  /** Told, with the server's name, each time a server's tool list has been read and applied (first, on reconnect, on `list_changed`). */
  onListed?: (server: string) => void;
}
