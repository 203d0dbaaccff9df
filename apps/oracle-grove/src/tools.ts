import { type Recorder, type ToolGateOptions, ToolRegistry } from '@toolgate/core';
import { type LedgerEvent, ReplaySession, replayRegistry } from '@toolgate/ledger';

/** Where the scenario's tools live for one run, and how to let go of them. */
export interface ToolSetup {
  registry: ToolRegistry;
  transport: 'in-process' | 'mcp' | 'replay';
  /** The gate's options for the run, given the run's recorder and call ids. */
  gateOptions(base: { recorder: Recorder; callIds: () => string }): ToolGateOptions;
  /** After the run: a replay checks every recorded call was made. */
  finish(): void;
  close(): Promise<void>;
}

/**
 * The registry for a run. With a recording, nothing runs: every result, and every policy decision,
 * is served from the ledger (strict: a call that differs fails loudly with the seq and the
 * difference). With `MCP_SERVERS` or `MCP_ORACLE` set, the oracle is not registered in-process, so
 * every call crosses the transport. Otherwise the oracle runs in-process. The MCP client (and the
 * MCP SDK under it) is imported only when one of those is set, and the built-in tools only for an
 * in-process run: a replay or an in-process run loads neither.
 */
export async function toolSetup(options: {
  env: NodeJS.ProcessEnv;
  recording?: LedgerEvent[];
}): Promise<ToolSetup> {
  if (options.recording) {
    const session = new ReplaySession(options.recording, { mode: 'strict' });
    return {
      registry: replayRegistry(session),
      transport: 'replay',
      gateOptions: (base) => session.gateOptions(base),
      finish: () => session.assertComplete(),
      close: async () => {},
    };
  }
  const mcpAsked = Boolean(options.env.MCP_SERVERS?.trim()) || options.env.MCP_ORACLE !== undefined;
  const resolver = mcpAsked ? await (await import('./from-env.js')).resolverFromEnv(options.env) : undefined;
  if (resolver) {
    return {
      registry: new ToolRegistry().setResolver(resolver),
      transport: 'mcp',
      gateOptions: (base) => base,
      finish: () => {},
      close: () => resolver.close(),
    };
  }
  const { oracleTool } = await import('@toolgate/builtins');
  return {
    registry: new ToolRegistry().register(oracleTool()),
    transport: 'in-process',
    gateOptions: (base) => base,
    finish: () => {},
    close: async () => {},
  };
}
