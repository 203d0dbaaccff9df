import { headerValue, type ParamHeader, paramHeaders } from '@toolgate/core/internal';
import { packageVersion } from '../package-version.js';

type Fetch = typeof fetch;

/** The MCP revision of the stateless era, and the legacy one the 1.x client is told it speaks. */
export const modernRevision = '2026-07-28';
const legacyRevision = '2025-11-25';

const envelopeKeys = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: string | number;
  method: string;
  params?: Record<string, unknown>;
}

interface JsonRpcAnswer {
  result?: unknown;
  error?: { code?: unknown; data?: unknown };
}

/** What {@link eraNegotiatingFetch} says of the client in the stateless era. */
export interface ModernClient {
  /** The client capabilities each request's envelope declares. */
  readonly capabilities: Record<string, unknown>;
  /** A listed tool's `x-mcp-header` declarations, mirrored as `Mcp-Param-*` headers on its calls. */
  readonly paramHeaders: (tool: string) => readonly ParamHeader[] | undefined;
}

/** A client that declares no capability and knows no tool's declarations. */
const anonymous: ModernClient = { capabilities: {}, paramHeaders: () => undefined };

/**
 * A fetch under the SDK's 1.x HTTP client transport that speaks MCP 2026-07-28 to a server that
 * offers it, and 2025-11-25 to any other: the client's `initialize` is first tried as
 * `server/discover` (with the per-request `_meta` envelope and the `Mcp-Method` header); when the
 * server answers it with 2026-07-28 among its `supportedVersions`, the client is answered an
 * `initialize` result from the discovered capabilities and server info, and from then on every
 * request carries the envelope (with `client.capabilities`) and the `MCP-Protocol-Version` /
 * `Mcp-Method` / `Mcp-Name` headers — a `tools/call` also the `Mcp-Param-*` headers of the tool's
 * `x-mcp-header` declarations (`client.paramHeaders`) — and `notifications/initialized` and the
 * notification stream (GET) are answered here (the stateless era has neither). Any other answer to the probe (an error, 404, a non-JSON body) keeps the
 * legacy era: the `initialize` goes as it was. One instance per connection; a reconnect makes a
 * new one and negotiates again.
 */
export function eraNegotiatingFetch(base: Fetch, client: ModernClient = anonymous): Fetch {
  let modern = false;
  return async (input, init) => {
    const body = typeof init?.body === 'string' ? parseRequest(init.body) : undefined;
    if (body?.method === 'initialize' && body.id !== undefined) {
      const discovered = await discover(base, input, init, body, client);
      if (discovered === undefined) return base(input, init);
      modern = true;
      return json({ jsonrpc: '2.0', id: body.id, result: initializeResult(discovered) });
    }
    if (!modern) return base(input, init);
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'GET') return new Response(null, { status: 405 }); // no notification stream
    if (method === 'DELETE') return new Response(null, { status: 200 }); // no session to end
    if (body === undefined) return base(input, init);
    if (body.method === 'notifications/initialized') return new Response(null, { status: 202 });
    return base(input, modernInit(init!, body, client));
  };
}

/** The `server/discover` result when the server offers 2026-07-28, else undefined (legacy). */
async function discover(
  base: Fetch,
  input: Parameters<Fetch>[0],
  init: RequestInit | undefined,
  initialize: JsonRpcRequest,
  client: ModernClient,
): Promise<Record<string, unknown> | undefined> {
  const probe: JsonRpcRequest = { jsonrpc: '2.0', id: initialize.id!, method: 'server/discover', params: {} };
  // A server may refuse the first with UnsupportedProtocolVersion naming what it supports: when that
  // names 2026-07-28, the probe is sent once more (the revision's version negotiation), else legacy.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let response: Response;
    try {
      response = await base(input, modernInit(init ?? {}, probe, client));
    } catch {
      return undefined; // the initialize will meet the same fault and report it
    }
    const text = await response.text().catch(() => '');
    const message = parseResponse(text, response.headers.get('content-type') ?? '');
    if (message?.error?.code === unsupportedVersionCode && supports(message.error.data)) continue;
    if (!response.ok) return undefined;
    const result = message?.result as Record<string, unknown> | undefined;
    const versions = result?.supportedVersions;
    return Array.isArray(versions) && versions.includes(modernRevision) ? result : undefined;
  }
  return undefined;
}

/** The revision's UnsupportedProtocolVersionError. */
const unsupportedVersionCode = -32022;

/** True when an UnsupportedProtocolVersionError's data lists 2026-07-28 among what the server supports. */
function supports(data: unknown): boolean {
  const supported = (data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) && supported.includes(modernRevision);
}

/** The request as the stateless era sends it: the envelope in `_meta`, the headers naming it. */
function modernInit(init: RequestInit, request: JsonRpcRequest, client: ModernClient): RequestInit {
  const headers = new Headers(init.headers);
  headers.delete('mcp-session-id');
  headers.set('mcp-protocol-version', modernRevision);
  headers.set('mcp-method', request.method);
  const name = mcpName(request);
  if (name !== undefined) headers.set('mcp-name', name);
  const tool = request.method === 'tools/call' ? request.params?.name : undefined;
  const declared = typeof tool === 'string' ? client.paramHeaders(tool) : undefined;
  for (const [header, value] of Object.entries(paramHeaders(declared ?? [], request.params?.arguments))) {
    headers.set(header, value);
  }
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  if (!headers.has('accept')) headers.set('accept', 'application/json, text/event-stream');
  const meta = {
    [envelopeKeys.protocolVersion]: modernRevision,
    [envelopeKeys.clientInfo]: { name: 'toolgate', version: packageVersion },
    [envelopeKeys.clientCapabilities]: client.capabilities,
    ...((request.params?._meta as Record<string, unknown> | undefined) ?? {}),
  };
  const isNotification = request.id === undefined;
  const params = isNotification ? request.params : { ...request.params, _meta: meta };
  return { ...init, method: 'POST', headers, body: JSON.stringify({ ...request, params }) };
}

/** Which field of a request's params the `Mcp-Name` header mirrors (2026-07-28, SEP-2243). */
const nameSources: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** The `Mcp-Name` header of a request (see {@link headerValue}), or undefined for a method without one. */
function mcpName(request: JsonRpcRequest): string | undefined {
  const field = Object.hasOwn(nameSources, request.method) ? nameSources[request.method] : undefined;
  const value = field === undefined ? undefined : request.params?.[field];
  return typeof value === 'string' ? headerValue(value) : undefined;
}

function initializeResult(discovered: Record<string, unknown>): Record<string, unknown> {
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

function parseRequest(text: string): JsonRpcRequest | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const method = (value as { method?: unknown }).method;
    return typeof method === 'string' ? (value as JsonRpcRequest) : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC response from a JSON body or the first `data:` line of an event stream. */
function parseResponse(text: string, contentType: string): JsonRpcAnswer | undefined {
  const data = contentType.includes('text/event-stream')
    ? text
        .split('\n')
        .find((line) => line.startsWith('data:'))
        ?.slice(5)
    : text;
  try {
    return data === undefined ? undefined : (JSON.parse(data) as JsonRpcAnswer);
  } catch {
    return undefined;
  }
}

function json(value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}
