import { isIP } from 'node:net';
import { ToolgateError } from '@toolgate/core';
import { assertAddressAllowed } from './address-rules.js';

/** A URL that passed the scheme rules, with what the network rules need. */
export interface CheckedUrl {
  url: URL;
  /** The lower-cased host name, without IPv6 brackets. */
  hostname: string;
  /** The port, explicit or the scheme's default. */
  port: number;
  /** True when the allow-list names this host (or host:port). */
  allowed: boolean;
}

/**
 * Matches hosts against an allow-list. Entries are lower-cased host names or IP addresses
 * (`api.example.com`, `127.0.0.1`, `[::1]`), optionally with a port (`127.0.0.1:8080`), or a
 * `*.` suffix wildcard (`*.example.com`).
 */
export function hostAllowList(entries: readonly string[] = []): (hostname: string, port: number) => boolean {
  const normalised = entries.map((entry) => entry.trim().toLowerCase());
  return (hostname, port) => {
    const host = hostname.includes(':') ? `[${hostname}]` : hostname;
    return normalised.some((entry) => {
      if (entry === host || entry === `${host}:${port}`) return true;
      return entry.startsWith('*.') && host.endsWith(entry.slice(1)) && !host.includes(':');
    });
  };
}

/**
 * Parses a URL (WHATWG rules, so `2130706433`, `0x7f000001`, `127.1` and `0177.0.0.1` all become
 * `127.0.0.1`), refuses every scheme but http and https, and refuses an IP literal in a non-public
 * range unless the allow-list names it. Names are judged later, on the addresses they resolve to.
 */
export function checkUrl(raw: string, isAllowed: (hostname: string, port: number) => boolean): CheckedUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolgateError('NETWORK_REFUSED', `${JSON.stringify(raw)} is not a valid absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolgateError(
      'NETWORK_REFUSED',
      `the scheme "${url.protocol}" is refused; only http: and https: URLs can be fetched`,
    );
  }
  if (url.username || url.password) {
    throw new ToolgateError('NETWORK_REFUSED', 'URLs with credentials in them are refused; send a header');
  }
  const hostname = url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const allowed = isAllowed(hostname, port);
  if (isIP(hostname)) assertAddressAllowed(hostname, url.host, allowed);
  return { url, hostname, port, allowed };
}

/**
 * Refuses a caller-supplied `Host` header, in any letter case: the host a request names is its
 * URL's, the one every rule judged, never one a header puts in its place.
 */
export function assertNoHostHeader(headers: Record<string, string> | undefined): void {
  const named = Object.keys(headers ?? {}).find((name) => name.trim().toLowerCase() === 'host');
  if (named === undefined) return;
  throw new ToolgateError(
    'INVALID_PARAMETERS',
    `the request header ${JSON.stringify(named)} is refused: the Host a request is sent with is its URL's ` +
      'host, the one policy and the network rules judged; put the host you mean in the URL and send no Host header',
  );
}
