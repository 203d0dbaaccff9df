import { headerValue, paramHeaders } from '@toolgate/core/internal';
import type { McpProtocol } from '../server-config.js';
import {
  anonymous,
  describeDiscoverAnswer,
  discoverRequest,
  discoverVerdict,
  initializeResult,
  type JsonRpcAnswer,
  type JsonRpcRequest,
  type ModernClient,
  ModernEraRefused,
  modernRevision,
  withEnvelope,
} from './modern-era.js';

type Fetch = typeof fetch;

/** What {@link eraNegotiatingFetch} says of the client, and which era it may speak. */
export interface EraNegotiation {
  client?: ModernClient;
  /** `'auto'` (2026-07-28 when offered, else 2025-11-25) or `'2026-07-28'` (only that: else the connect fails). */
  protocol?: Exclude<McpProtocol, '2025-11-25'>;
}

/**
 * A fetch under the SDK's 1.x HTTP client transport that speaks MCP 2026-07-28 to a server that
 * offers it, and 2025-11-25 to any other: the client's `initialize` is first tried as
 * `server/discover` (with the per-request `_meta` envelope and the `Mcp-Method` header); when the
 * server answers it with 2026-07-28 among its `supportedVersions`, the client is answered an
 * `initialize` result from the discovered capabilities and server info, and from then on every
 * request carries the envelope (with `client.capabilities`) and the `MCP-Protocol-Version` /
 * `Mcp-Method` / `Mcp-Name` headers — a `tools/call` also the `Mcp-Param-*` headers of the tool's
 * `x-mcp-header` declarations (`client.paramHeaders`) — and `notifications/initialized` and the
 * notification stream (GET) are answered here (the stateless era has neither). Any other answer
 * to the probe (an error, 404, a non-JSON body) keeps the legacy era: the `initialize` goes as it
 * was — unless `protocol` is `'2026-07-28'`, when the fetch rejects with {@link ModernEraRefused}.
 * One instance per connection; a reconnect makes a new one and negotiates again. (The message-level
 * parts, shared with stdio, are in `modern-era.ts`.)
 */
export function eraNegotiatingFetch(
  base: Fetch,
  { client = anonymous, protocol = 'auto' }: EraNegotiation = {},
): Fetch {
  let modern = false;
  return async (input, init) => {
    const body = typeof init?.body === 'string' ? parseRequest(init.body) : undefined;
    if (body?.method === 'initialize' && body.id !== undefined) {
      const discovered = await discover(
        { base, input, init, id: body.id },
        client,
        protocol === modernRevision,
      );
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

/** Where the probe goes: the fetch, URL and init of the client's `initialize`, and its id. */
interface ProbeTarget {
  base: Fetch;
  input: Parameters<Fetch>[0];
  init: RequestInit | undefined;
  id: string | number;
}

/**
 * The `server/discover` result when the server offers 2026-07-28, else undefined (legacy); when
 * `required`, a server that does not offer it fails with {@link ModernEraRefused} (and a fault
 * reaching it with its own error).
 */
async function discover(
  { base, input, init, id }: ProbeTarget,
  client: ModernClient,
  required: boolean,
): Promise<Record<string, unknown> | undefined> {
  const probe = discoverRequest(id, client);
  let answer: JsonRpcAnswer | undefined;
  // A server may refuse the first with UnsupportedProtocolVersion naming what it supports: when that
  // names 2026-07-28, the probe is sent once more (the revision's version negotiation), else legacy.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let response: Response;
    try {
      response = await base(input, modernInit(init ?? {}, probe, client));
    } catch (error) {
      if (required) throw error;
      return undefined; // the initialize will meet the same fault and report it
    }
    const text = await response.text().catch(() => '');
    answer = parseResponse(text, response.headers.get('content-type') ?? '');
    const verdict = discoverVerdict(answer);
    if (verdict.kind === 'again') continue;
    if (verdict.kind === 'modern' && response.ok) return verdict.discovered;
    if (!required) return undefined;
    const status = response.ok ? '' : `HTTP ${response.status}: `;
    throw new ModernEraRefused(`${status}${describeDiscoverAnswer(answer)}`);
  }
  if (required) throw new ModernEraRefused(describeDiscoverAnswer(answer));
  return undefined;
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
  return { ...init, method: 'POST', headers, body: JSON.stringify(withEnvelope(request, client)) };
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
