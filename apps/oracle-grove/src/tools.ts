import { oracleTool } from '@toolgate/builtins';
import { type Recorder, type ToolGateOptions, ToolRegistry } from '@toolgate/core';
import { type LedgerEvent, ReplaySession, replayRegistry } from '@toolgate/ledger';
import { resolverFromEnv } from './from-env.js';

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
 * every call crosses the transport. Otherwise the oracle runs in-process.
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
  const resolver = await resolverFromEnv(options.env);
  if (resolver) {
    return {
      registry: new ToolRegistry().setResolver(resolver),
      transport: 'mcp',
      gateOptions: (base) => base,
      finish: () => {},
      close: () => resolver.close(),
    };
  }
  return {
    registry: new ToolRegistry().register(oracleTool()),
    transport: 'in-process',
    gateOptions: (base) => base,
    finish: () => {},
    close: async () => {},
  };
}
