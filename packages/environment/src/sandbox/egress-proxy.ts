import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import type { HostResolver } from '../fetch/index.js';
import { addressRange, isPublicAddress } from '../fetch/index.js';
import { forwarderScript } from './egress-forwarder.js';

/** One destination a sandboxed command asked the proxy for. */
export interface EgressDestination {
  /** The host name or IP literal, as the command named it (no brackets, no port). */
  host: string;
  port: number;
  /** The call id of the `exec` the command runs in (`ExecOptions.callId`), when it was given one. */
  callId: string | undefined;
}

/**
 * Judges one destination of a sandboxed command's network (`network: 'policy'`): true lets the
 * proxy connect, false refuses it. Wire it to the policy that judges `fetch` (its `hosts` rules)
 * and record refusals there; it is asked before any address is looked up.
 */
export type EgressJudge = (destination: EgressDestination) => boolean | Promise<boolean>;

/** Where the proxy's directory appears inside the sandbox. */
export const egressMount = '/run/toolgate-egress';

/** A proxy started for one command. */
export interface EgressProxy {
  /** Host directory holding `proxy.sock` and the forwarder, bound at {@link egressMount}. */
  directory: string;
  /** Destinations refused, as `host:port — reason`. */
  refused: string[];
  close(): Promise<void>;
}

/** What a proxy judges destinations with. */
export interface EgressRules {
  judge: EgressJudge;
  /** The environment's allow-list (`allowHosts`): the only way to an internal address. */
  isAllowed: (hostname: string, port: number) => boolean;
  resolver: HostResolver;
  callId: string | undefined;
}

type Admission = { address: string } | { refused: string };

async function admit(host: string, port: number, rules: EgressRules): Promise<Admission> {
  const name = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!name || !Number.isInteger(port) || port < 1 || port > 65535) return { refused: 'not a host and port' };
  let verdict: boolean;
  try {
    verdict = (await rules.judge({ host: name, port, callId: rules.callId })) === true;
  } catch (error) {
    return { refused: `the policy could not judge it (${(error as Error).message})` };
  }
  if (!verdict) return { refused: 'refused by policy' };
  const allowed = rules.isAllowed(name, port);
  let addresses: readonly { address: string }[];
  try {
    addresses = ipaddr.isValid(name) ? [{ address: name }] : await rules.resolver(name);
  } catch (error) {
    return { refused: `it does not resolve (${(error as Error).message})` };
  }
  const first = addresses[0];
  if (first === undefined) return { refused: 'it resolves to no address' };
  for (const { address } of addresses) {
    if (!allowed && !isPublicAddress(address)) {
      return { refused: `it resolves to ${address}, a ${addressRange(address)} address, not in allowHosts` };
    }
  }
  // The connection goes to the address judged, never to a second lookup.
  return { address: first.address };
}

function refusal(host: string, port: number, reason: string): string {
  return `toolgate: the sandbox's egress proxy refused ${host}:${port}: ${reason}\n`;
}

function splitAuthority(authority: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
  return match ? { host: match[1] ?? '', port: Number(match[2]) } : { host: '', port: 0 };
}

/**
 * Starts a filtering HTTP proxy on a Unix socket for one command: CONNECT (any TLS or TCP stream to
 * a host and port) and plain HTTP requests in absolute form. Each destination is judged by
 * `rules.judge`, then its addresses must be public unless `allowHosts` names it, as for `fetch`;
 * the connection goes to the very address checked. Anything else gets 403 (or 400) and nothing is
 * connected.
 */
export async function startEgressProxy(rules: EgressRules): Promise<EgressProxy> {
  const directory = mkdtempSync(join(tmpdir(), 'toolgate-egress-'));
  chmodSync(directory, 0o711);
  writeFileSync(join(directory, 'forwarder.cjs'), forwarderScript, { mode: 0o644 });
  const refused: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => void forward(request, response));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const { host, port } = splitAuthority(request.url ?? '');
    void admit(host, port, rules).then((admission) => {
      if ('refused' in admission) {
        refused.push(`${host}:${port} — ${admission.refused}`);
        client.end(
          `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal(host, port, admission.refused)}`,
        );
        return;
      }
      const upstream = net.connect({ host: admission.address, port }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('toolgate: send an absolute http:// URL, or CONNECT\n');
      return;
    }
    const port = Number(url.port || 80);
    const admission = await admit(url.hostname, port, rules);
    if ('refused' in admission) {
      refused.push(`${url.hostname}:${port} — ${admission.refused}`);
      response
        .writeHead(403, { 'content-type': 'text/plain' })
        .end(refusal(url.hostname, port, admission.refused));
      return;
    }
    const headers: Record<string, string | string[] | undefined> = { ...request.headers, host: url.host };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request(
      {
        host: admission.address,
        port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
      },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    upstream.on('error', (error) => response.destroy(error));
    request.pipe(upstream);
  }
  const socketPath = join(directory, 'proxy.sock');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  chmodSync(socketPath, 0o666);
  return {
    directory,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          rmSync(directory, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
