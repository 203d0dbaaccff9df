import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { ToolgateError } from '@toolgate/core';
import type { FetchRequest, FetchResponse } from '../environment.js';
import { CappedBuffer } from '../exec/index.js';
import { assertAddressAllowed } from './address-rules.js';
import { assertNoHostHeader, type CheckedUrl, checkUrl } from './url-rules.js';

/** One resolved address of a host name. */
export interface HostAddress {
  address: string;
  family: number;
}

/** Resolves a host name to its addresses; inject one to make a name resolve where a test needs. */
export type HostResolver = (hostname: string) => Promise<readonly HostAddress[]>;

/** The system resolver (`getaddrinfo`), every address. */
export const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The network rules one request runs under. */
export interface NetworkRules {
  isAllowed: (hostname: string, port: number) => boolean;
  resolver: HostResolver;
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const credentialHeaders = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Makes an HTTP(S) request with node:http, checking every hop: the scheme, IP literals, the
 * addresses a name resolves to (in the very lookup the socket connects with), and the address the
 * socket actually connected to. Redirects are followed by hand so each hop is checked again, and
 * told to `request.beforeRedirect` (policy) before it is contacted; environment proxies are never
 * consulted. A `Host` header is refused: the host is the URL's.
 */
export async function fetchLocal(request: FetchRequest, rules: NetworkRules): Promise<FetchResponse> {
  assertNoHostHeader(request.headers);
  const timeoutMs = Math.min(request.timeoutMs ?? rules.timeoutMs, rules.timeoutMs);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let method = (request.method ?? 'GET').toUpperCase();
  let body = request.body;
  let headers = { ...(request.headers ?? {}) };
  const redirects: string[] = [];
  let current = checkUrl(request.url, rules.isAllowed);
  try {
    for (let hop = 0; ; hop++) {
      const response = await requestOnce(current, method, headers, body, rules, controller.signal);
      const location = response.headers.location;
      if (!redirectStatuses.has(response.statusCode ?? 0) || !location) {
        return await readResponse(current.url.href, response, redirects, rules.maxResponseBytes, controller);
      }
      response.resume();
      if (hop >= rules.maxRedirects) {
        throw new ToolgateError('NETWORK_FAILED', `gave up after ${rules.maxRedirects} redirects`);
      }
      const nextUrl = new URL(location, current.url).href;
      const next = checkUrl(nextUrl, rules.isAllowed);
      await request.beforeRedirect?.({ url: nextUrl, hostname: next.hostname, number: hop + 1 });
      if (next.url.origin !== current.url.origin) headers = withoutCredentials(headers);
      const status = response.statusCode ?? 0;
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
      }
      redirects.push(nextUrl);
      current = next;
    }
  } catch (error) {
    if (controller.signal.aborted && !ToolgateError.is(error)) {
      throw new ToolgateError('TIMEOUT', `fetching ${request.url} took longer than ${timeoutMs} ms`);
    }
    if (ToolgateError.is(error)) throw error;
    throw new ToolgateError(
      'NETWORK_FAILED',
      `fetching ${current.url.href} failed: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  } finally {
    clearTimeout(timer);
  }
}

function requestOnce(
  target: CheckedUrl,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  rules: NetworkRules,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const { url } = target;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolvePromise, reject) => {
    const outgoing = transport.request({
      protocol: url.protocol,
      hostname: target.hostname,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method,
      headers: { host: url.host, ...headers },
      agent: false,
      lookup: guardedLookup(target, rules.resolver),
      signal,
      ...(url.protocol === 'https:' ? { servername: target.hostname } : {}),
    });
    outgoing.once('socket', (socket: Socket) => {
      socket.once('connect', () => {
        try {
          assertAddressAllowed(socket.remoteAddress ?? '', url.host, target.allowed);
        } catch (error) {
          outgoing.destroy(error as Error);
        }
      });
    });
    outgoing.once('response', resolvePromise);
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

type LookupCallback = (error: unknown, address?: string | readonly HostAddress[], family?: number) => void;

function guardedLookup(target: CheckedUrl, resolver: HostResolver): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    resolver(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = found.filter((entry) => wanted === 0 || entry.family === wanted);
        if (addresses.length === 0) {
          callback(new ToolgateError('NETWORK_FAILED', `${hostname} did not resolve to any address`));
          return;
        }
        try {
          for (const entry of addresses) assertAddressAllowed(entry.address, hostname, target.allowed);
        } catch (error) {
          callback(error);
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => callback(error),
    );
  }) as LookupFunction;
}

async function readResponse(
  url: string,
  response: IncomingMessage,
  redirects: string[],
  maxBytes: number,
  controller: AbortController,
): Promise<FetchResponse> {
  const buffer = new CappedBuffer(maxBytes);
  try {
    for await (const chunk of response) buffer.push(chunk as Buffer);
  } catch (error) {
    if (!(controller.signal.aborted && buffer.omitted > 0)) throw error;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    url,
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    headers,
    body: buffer.text(),
    omittedBytes: buffer.omitted,
    redirects,
  };
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !credentialHeaders.includes(name.toLowerCase())),
  );
}
