import type { IncomingMessage } from 'node:http';

/** The `Host` and `Origin` values a viewer bound to an address answers to. */
export interface HostAllowList {
  readonly hosts: readonly string[];
  readonly origins: readonly string[];
}

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * The `Host` values a viewer bound to `host:port` accepts (the bound address, plus every loopback
 * name when bound to loopback) and the matching `http://` origins: the same DNS-rebinding check as
 * `toolgate-mcp --http`.
 */
export function allowListFor(host: string, port: number): HostAllowList {
  const bound = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const names = isLoopbackHost(host) ? [...new Set([bound, '127.0.0.1', 'localhost', '[::1]'])] : [bound];
  const hosts = names.map((name) => `${name}:${port}`.toLowerCase());
  return { hosts, origins: hosts.map((value) => `http://${value}`) };
}

/** Why a request is refused (403), or undefined when its `Host` and `Origin` are allowed. */
export function refuseHost(request: IncomingMessage, allowed: HostAllowList): string | undefined {
  const host = request.headers.host?.toLowerCase();
  if (!host || !allowed.hosts.includes(host))
    return `Host header ${JSON.stringify(host ?? '')} is not allowed`;
  const origin = request.headers.origin?.toLowerCase();
  if (origin !== undefined && !allowed.origins.includes(origin)) {
    return `Origin ${JSON.stringify(origin)} is not allowed`;
  }
  return undefined;
}
