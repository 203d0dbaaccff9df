import type { ParamHeader } from '@toolgate/core/internal';
import { packageVersion } from '../package-version.js';

/** The MCP revision of the stateless era, and the legacy one the 1.x client is told it speaks. */
export const modernRevision = '2026-07-28';
const legacyRevision = '2025-11-25';

const envelopeKeys = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** A JSON-RPC request or notification (a notification has no `id`). */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: string | number;
  method: string;
  params?: Record<string, unknown>;
}

/** A JSON-RPC response, as far as the era's negotiation reads one. */
export interface JsonRpcAnswer {
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** What the client says of itself in the stateless era, over either transport. */
export interface ModernClient {
  /** The client capabilities each request's envelope declares. */
  readonly capabilities: Record<string, unknown>;
  /** A listed tool's `x-mcp-header` declarations, mirrored as `Mcp-Param-*` headers on its calls (HTTP). */
  readonly paramHeaders: (tool: string) => readonly ParamHeader[] | undefined;
}

/** A client that declares no capability and knows no tool's declarations. */
export const anonymous: ModernClient = { capabilities: {}, paramHeaders: () => undefined };

/**
 * A request as the stateless era sends it: the per-request `_meta` envelope (revision, client
 * info, `client.capabilities`) under any `_meta` of its own. A notification goes as it is (the
 * revision gives notifications no envelope).
 */
export function withEnvelope(request: JsonRpcRequest, client: ModernClient): JsonRpcRequest {
  if (request.id === undefined) return request;
  const meta = {
    [envelopeKeys.protocolVersion]: modernRevision,
    [envelopeKeys.clientInfo]: { name: 'toolgate', version: packageVersion },
    [envelopeKeys.clientCapabilities]: client.capabilities,
    ...((request.params?._meta as Record<string, unknown> | undefined) ?? {}),
  };
  return { ...request, params: { ...request.params, _meta: meta } };
}

/** The `server/discover` probe, with the envelope, on `id`. */
export function discoverRequest(id: string | number, client: ModernClient): JsonRpcRequest {
  return withEnvelope({ jsonrpc: '2.0', id, method: 'server/discover', params: {} }, client);
}

/**
 * What an answer to `server/discover` says of the server: `modern` with the discover result when it
 * offers 2026-07-28 among its `supportedVersions`; `again` when it refused the probe with
 * UnsupportedProtocolVersion (-32022) naming 2026-07-28 among what it supports (the revision's
 * version negotiation: the probe is sent once more); else `legacy` (an error, no answer, another
 * revision).
 */
export type DiscoverVerdict =
  | { kind: 'modern'; discovered: Record<string, unknown> }
  | { kind: 'again' }
  | { kind: 'legacy' };

/** The {@link DiscoverVerdict} of an answer to `server/discover` (undefined: none came). */
export function discoverVerdict(answer: JsonRpcAnswer | undefined): DiscoverVerdict {
  if (answer?.error?.code === unsupportedVersionCode && supports(answer.error.data)) return { kind: 'again' };
  const result = answer?.result as Record<string, unknown> | undefined;
  const versions = result?.supportedVersions;
  return result !== undefined && Array.isArray(versions) && versions.includes(modernRevision)
    ? { kind: 'modern', discovered: result }
    : { kind: 'legacy' };
}

/** The revision's UnsupportedProtocolVersionError. */
const unsupportedVersionCode = -32022;

/** True when an UnsupportedProtocolVersionError's data lists 2026-07-28 among what the server supports. */
function supports(data: unknown): boolean {
  const supported = (data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) && supported.includes(modernRevision);
}

/**
 * The `initialize` result the 1.x client is answered when the server was discovered to speak
 * 2026-07-28: the discovered capabilities, server info and instructions, at the legacy revision the
 * 1.x client knows.
 */
export function initializeResult(discovered: Record<string, unknown>): Record<string, unknown> {
  const meta = discovered._meta as Record<string, unknown> | undefined;
  const serverInfo = (meta?.[envelopeKeys.serverInfo] as Record<string, unknown> | undefined) ?? {
    name: 'unnamed',
    version: '0',
  };
  return {
    protocolVersion: legacyRevision,
    capabilities: discovered.capabilities ?? {},
    serverInfo,
    ...(typeof discovered.instructions === 'string' ? { instructions: discovered.instructions } : {}),
  };
}

/**
 * Why a connect failed: the server's config asks for MCP 2026-07-28 (`protocol: '2026-07-28'`) and
 * the server does not offer it. The gateway finds it among an error's causes to name the config
 * key to change.
 */
export class ModernEraRefused extends Error {
  override readonly name = 'ModernEraRefused';

  constructor(answered: string) {
    super(
      `it does not offer MCP ${modernRevision} (${answered}), and its config's protocol is '${modernRevision}'; ` +
        "set protocol to 'auto' (or leave it out) to speak the revision it serves",
    );
  }
}

/** How a server's answer to the probe reads in a {@link ModernEraRefused}: its error, or the versions it supports. */
export function describeDiscoverAnswer(answer: JsonRpcAnswer | undefined): string {
  if (answer === undefined) return 'no answer to server/discover';
  if (answer.error !== undefined) {
    const message = typeof answer.error.message === 'string' ? `: ${answer.error.message.slice(0, 200)}` : '';
    return `server/discover answered error ${String(answer.error.code)}${message}`;
  }
  const versions = (answer.result as { supportedVersions?: unknown } | undefined)?.supportedVersions;
  return `server/discover answered supportedVersions ${JSON.stringify(versions ?? null).slice(0, 200)}`;
}
