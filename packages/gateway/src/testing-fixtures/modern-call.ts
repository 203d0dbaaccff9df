import { tokens } from './gateway.js';

/** The MCP revision the raw calls speak. */
export const modernRevision = '2026-07-28';

/** What a raw modern call carries besides its `params`. */
export interface ModernCallOptions {
  /** The client's bearer token (the desktop client's by default). */
  token?: string;
  /** The client capabilities its `_meta` declares (none by default). */
  capabilities?: Record<string, unknown>;
  /** Headers added to the request, such as `Mcp-Param-*`. */
  headers?: Record<string, string>;
}

/**
 * One 2026-07-28 `tools/call` POSTed as raw JSON-RPC (id 7) to `url`: `params` as given, with the
 * era's `_meta` and the `Mcp-Method` / `Mcp-Name` headers added.
 */
export function postModernCall(
  url: string,
  params: Record<string, unknown>,
  options: ModernCallOptions = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${options.token ?? tokens.desktop}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': modernRevision,
      'mcp-method': 'tools/call',
      'mcp-name': String(params.name),
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': modernRevision,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
        },
      },
    }),
  });
}

/** The JSON-RPC message a response carries, whether as plain JSON or as one SSE event. */
export async function jsonRpcMessageOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text);
  return JSON.parse(data) as Record<string, unknown>;
}
