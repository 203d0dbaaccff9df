import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { messageOf } from '@toolgate/core';
import type { ParamHeader } from '@toolgate/core/internal';
import { formatBytes, type ResolvedLimits } from '../limits.js';
import { isStdioConfig, type McpServerConfig } from '../server-config.js';
import { defaultTimeoutMs } from '../timeouts.js';
import { capErrorText } from './error-text.js';
import { BatchTooLarge, limitedFetch } from './limited-fetch.js';
import type { ModernClient } from './modern-era.js';
import { eraNegotiatingFetch } from './modern-fetch.js';
import { clientCapabilities } from './server-requests.js';
import { StdioErasTransport } from './stdio-eras.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

/** What {@link serverTransport} reports, and asks of its connection. */
export interface TransportHooks {
  /** Why the stream is cut off (the session is then to be dropped). */
  onFault: (fault: string) => void;
  /** A listed tool's `x-mcp-header` declarations (HTTP, 2026-07-28: mirrored as `Mcp-Param-*` headers). */
  paramHeaders: (tool: string) => readonly ParamHeader[] | undefined;
}

/**
 * The SDK transport to one server, held to its limits: over stdio, a child in its own process group
 * (killed on close and on timeout, its children with it) whose stdout lines may not pass
 * `maxMessageBytes`; over HTTP, a fetch that cuts off an oversized message or batch unread and
 * tells `onFault` why (the session is then to be dropped). The era is the config's `protocol`:
 * over stdio 2025-11-25 unless it says `'auto'` or `'2026-07-28'` (then `StdioErasTransport`);
 * over HTTP negotiated unless it says `'2025-11-25'` (`eraNegotiatingFetch`). In 2026-07-28 the
 * client declares the config's capabilities, and over HTTP sends each tool's `Mcp-Param-*` headers.
 */
export function serverTransport(
  config: McpServerConfig,
  limits: ResolvedLimits,
  hooks: TransportHooks,
): Transport {
  const client: ModernClient = { capabilities: clientCapabilities(config), paramHeaders: hooks.paramHeaders };
  if (isStdioConfig(config)) {
    const process = {
      command: config.command,
      args: config.args ?? [],
      ...(config.env ? { env: config.env } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      // The stream is refused once one line (with the rest of the chunk being read) passes this.
      maxBufferSize: limits.maxMessageBytes,
    };
    const protocol = config.protocol ?? '2025-11-25';
    if (protocol === '2025-11-25') return new ProcessGroupStdioTransport(process);
    return new StdioErasTransport({
      process,
      protocol,
      client,
      probeTimeoutMs: config.timeoutMs ?? defaultTimeoutMs,
    });
  }
  const headers = config.headers;
  const fetch = limitedFetch(
    limits,
    (error) => {
      hooks.onFault(
        error instanceof BatchTooLarge
          ? `it sent ${error.message} (limits.maxBatchMessages), so it was cut off unread; ` +
              'raise the limit in its config if this server is trusted to send more'
          : oversizeFault(limits),
      );
    },
    config.fetch,
  );
  const protocol = config.protocol ?? 'auto';
  return new StreamableHTTPClientTransport(new URL(config.url), {
    ...(headers ? { requestInit: { headers } } : {}),
    fetch: protocol === '2025-11-25' ? fetch : eraNegotiatingFetch(fetch, { client, protocol }),
  });
}

/** Why a stdio stream broke, from the error its transport reported: too large, not JSON-RPC, or its own words. */
export function stdioFault(error: Error, limits: ResolvedLimits): string {
  if (/^ReadBuffer exceeded maximum size/.test(error.message)) return oversizeFault(limits);
  const junk = error instanceof SyntaxError || error.name === 'ZodError';
  return junk
    ? `it wrote a line that is not JSON-RPC to stdout (${capErrorText(messageOf(error), 500)})`
    : messageOf(error);
}

function oversizeFault(limits: ResolvedLimits): string {
  return (
    `it sent a message larger than ${formatBytes(limits.maxMessageBytes)} (limits.maxMessageBytes), ` +
    'so it was cut off unread; raise the limit in its config if this server is trusted to send more'
  );
}
