import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from '../gateway.js';

/**
 * A JSON-RPC error for the client: the SDK sends an error's `code` and `message` as they are (an
 * `McpError` would send its message with an "MCP error N:" prefix the client's SDK adds again).
 */
export function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/**
 * The JSON-RPC error for a prompt or resource outside a client's grant, naming the gateway's fix:
 * the `clients.<name>.prompts` / `.resources` entry of the config file, and a reload.
 */
export function notGranted(
  gateway: Gateway,
  client: string,
  kind: 'prompt' | 'resource',
  name: string,
): Error & { code: number } {
  const source = gateway.config.source;
  const known = gateway.client(client);
  if (known === undefined) {
    return rpcError(
      ErrorCode.InvalidParams,
      `"${client}" is not a client of ${source}; add it under clients:`,
    );
  }
  const key = kind === 'prompt' ? 'prompts' : 'resources';
  const patterns = kind === 'prompt' ? known.prompts : known.resources;
  const granted =
    patterns.length === 0 ? 'none' : patterns.map((pattern) => JSON.stringify(pattern)).join(', ');
  const example = kind === 'prompt' ? JSON.stringify(name) : '"<prefix>:<uri glob>"';
  return rpcError(
    ErrorCode.InvalidParams,
    `client "${client}" is not granted ${kind} ${JSON.stringify(name)} (clients.${client}.${key} in ${source}: ${granted}); ` +
      `add a pattern matching it (e.g. ${example}) to clients.${client}.${key} and reload the gateway (SIGHUP)`,
  );
}

/**
 * The JSON-RPC error a client gets for an upstream's failure: the upstream's own code and `data` (a
 * resource it does not have stays -32602 or -32002, its URI in `data` as SEP-2164 asks) with the
 * gateway's message naming the upstream; else an internal error.
 */
export function upstreamError(error: unknown): Error & { code: number; data?: unknown } {
  const unprefixed = (text: string) => text.replace(/^MCP error -?\d+: /, '');
  if (error instanceof McpError) return withData(rpcError(error.code, unprefixed(error.message)), error.data);
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const message = error instanceof Error ? error.message : String(error);
  if (cause instanceof McpError) return withData(rpcError(cause.code, message), cause.data);
  return rpcError(ErrorCode.InternalError, message);
}

/** The error with the upstream's `data` (the SDKs of both eras send it on): none stays none. */
function withData(error: Error & { code: number }, data: unknown): Error & { code: number; data?: unknown } {
  return data === undefined ? error : Object.assign(error, { data });
}
