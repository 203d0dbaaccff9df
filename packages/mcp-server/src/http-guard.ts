import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';

/** What the HTTP guard checks before a request reaches MCP. */
export interface HttpGuardOptions {
  /** `Host` header values accepted (host:port). */
  allowedHosts: readonly string[];
  /** `Origin` header values accepted when the header is present. */
  allowedOrigins: readonly string[];
  /** When set, requests must carry `Authorization: Bearer <token>`. */
  token?: string | undefined;
}

/** A refusal: the HTTP status and a message for the JSON-RPC error body. */
export interface Refusal {
  status: 403 | 401;
  message: string;
}

/**
 * Checks `Host` and `Origin` (DNS-rebinding protection: 403) and then the bearer token (401).
 * Returns undefined when the request may go on.
 */
export function refuseRequest(request: IncomingMessage, options: HttpGuardOptions): Refusal | undefined {
  const host = request.headers.host?.toLowerCase();
  if (!host || !options.allowedHosts.includes(host)) {
    return { status: 403, message: `Host header ${JSON.stringify(host ?? '')} is not allowed` };
  }
  const origin = request.headers.origin?.toLowerCase();
  if (origin !== undefined && !options.allowedOrigins.includes(origin)) {
    return { status: 403, message: `Origin ${JSON.stringify(origin)} is not allowed` };
  }
  if (options.token !== undefined && !bearerMatches(request.headers.authorization, options.token)) {
    return { status: 401, message: 'missing or wrong bearer token' };
  }
  return undefined;
}

/**
 * The `Host` values a server bound to `host:port` answers to: the bound address, plus every
 * loopback name when it is bound to loopback, plus every address of this machine (and the loopback
 * names) when it is bound to a wildcard (`0.0.0.0`: the IPv4 ones; `::`: all). Addresses are read
 * when this is called; a host name (not an address) still needs `allowedHosts`.
 */
export function defaultAllowedHosts(
  host: string,
  port: number,
  addresses: () => readonly string[] = machineAddresses,
): string[] {
  const loopback = ['127.0.0.1', 'localhost', '[::1]'];
  const bound = bracketed(host);
  let names: string[];
  if (isWildcard(host)) {
    const ipv4Only = host === '0.0.0.0';
    const own = addresses().filter((address) => !ipv4Only || !address.includes(':'));
    const loopbackNames = ipv4Only ? ['127.0.0.1', 'localhost'] : loopback;
    names = [...new Set([bound, ...loopbackNames, ...own.map(bracketed)])];
  } else {
    names = isLoopback(host) ? [...new Set([bound, ...loopback])] : [bound];
  }
  return names.map((name) => `${name}:${port}`.toLowerCase());
}

/** True for the wildcard addresses that bind every interface: `0.0.0.0`, `::` and `[::]`. */
export function isWildcard(host: string): boolean {
  return ['0.0.0.0', '::', '[::]'].includes(host);
}

/** The IP addresses of this machine's network interfaces (IPv6 ones without a zone). */
function machineAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !(entry.family === 'IPv6' && entry.scopeid !== undefined && entry.scopeid !== 0))
    .map((entry) => entry.address);
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The `Origin` values matching a list of allowed hosts, over http. */
export function defaultAllowedOrigins(allowedHosts: readonly string[]): string[] {
  return allowedHosts.map((host) => `http://${host}`);
}

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
