import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ToolgateError } from '@toolgate/core';
import {
  BodyError,
  type HttpServeOptions,
  listenGuarded,
  readJsonBody,
  sendBodyError,
  sendJsonRpcError,
} from '@toolgate/mcp-server';
import { authInfoOf, HttpAuthentication } from './auth/index.js';
import type { GatewayClient, GatewayConfig } from './config-types.js';
import type { Gateway } from './gateway.js';
import { answerOps } from './ops/ops-routes.js';
import { refuseSession, sessionsByClient } from './ops/session-cap.js';
import { sessionEventStore } from './session-events.js';
import { createSessionServer } from './session-server.js';

/** How long a 2025-11-25 client waits before it resumes a broken stream (the SSE `retry` field), in ms. */
const streamRetryMs = 1000;

/**
 * Where and how the gateway listens over streamable HTTP: as `toolgate-mcp`'s {@link HttpServeOptions}
 * (host, port, path, allowed hosts and origins, body cap, same defaults) but without one shared
 * token, since each client has its own.
 */
export interface GatewayHttpOptions extends Omit<HttpServeOptions, 'token'> {
  /** Where the client tokens are read from (each client's `token_env`). Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * How long a session may go without a request before it is closed and freed, in ms (a client that
   * went away without DELETE). A request in progress or an open stream keeps it alive. Default
   * {@link defaultSessionIdleMs}.
   */
  sessionIdleMs?: number;
  /**
   * How many sessions one client may hold open at once; an initialize past it is refused (429)
   * until one closes or expires. Default {@link defaultMaxSessionsPerClient}.
   */
  maxSessionsPerClient?: number;
}

/** How many HTTP sessions one client may hold open at once by default. */
export const defaultMaxSessionsPerClient = 64;

/** How long an HTTP session may sit idle before the gateway closes it: 30 minutes. */
export const defaultSessionIdleMs = 30 * 60_000;

/** The running HTTP side of a gateway. */
export interface GatewayHttpEndpoint {
  readonly url: string;
  /** How many client sessions are open. */
  sessions(): number;
  close(): Promise<void>;
}

interface Session {
  client: string;
  /** Whose it is: the client and, for an access token, its issuer and subject. */
  owner: string;
  transport: StreamableHTTPServerTransport;
  /** Requests (and streams) of the session still open. */
  open: number;
  /** When the last of them ended (or the session began), by `performance.now()`. */
  idleSince: number;
}

/**
 * Serves the gateway over streamable HTTP with sessions (so a call can ask its client by
 * elicitation). A session idle for `sessionIdleMs` (no request, no open stream) is closed and
 * freed: a client that went away without DELETE leaves nothing behind. Before MCP sees a request: `Host` and `Origin` (403, DNS-rebinding protection, as
 * `toolgate-mcp`), then the bearer token, which says which client this is (401 when it is none
 * of the configured clients' tokens). A session belongs to the client that opened it: another
 * client's token cannot use its id. Tokens are read when each request arrives, from the config in
 * force (a SIGHUP reload changes them without dropping sessions).
 */
export async function serveGatewayHttp(
  gateway: Gateway,
  options: GatewayHttpOptions = {},
): Promise<GatewayHttpEndpoint> {
  const path = options.path ?? '/mcp';
  const env = options.env ?? process.env;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  checkTokens(gateway.config, env);
  const sessions = new Map<string, Session>();
  const idleMs = options.sessionIdleMs ?? defaultSessionIdleMs;
  const maxSessions = options.maxSessionsPerClient ?? defaultMaxSessionsPerClient;
  if (!(Number.isFinite(idleMs) && idleMs > 0)) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `sessionIdleMs ${idleMs} is not a positive number of milliseconds`,
    );
  }
  // MCP 2026-07-28 (stateless, `ask` by multi-round trip) beside the sessions of 2025-11-25
  const { gatewayModernHandler } = await import('./modern/index.js');
  const modern = await gatewayModernHandler(gateway, env);
  const sweeper = setInterval(
    () => {
      const now = performance.now();
      for (const session of sessions.values()) {
        if (session.open === 0 && now - session.idleSince >= idleMs) void session.transport.close();
      }
    },
    Math.max(10, Math.min(idleMs / 4, 60_000)),
  );
  sweeper.unref();
  let resourceUrl = '';
  const auth = new HttpAuthentication(gateway, env, () => resourceUrl);
  // no listener-wide token: the token is checked per client below (it says which client this is)
  const listener = await listenGuarded(
    async (request, response) => {
      if (auth.answerMetadata(request, response)) return;
      if (answerOps(gateway, request, response, () => sessionsByClient(sessions))) return;
      const admitted = await auth.admit(request.headers.authorization, request.socket.remoteAddress);
      if ('status' in admitted) {
        response.setHeader('WWW-Authenticate', admitted.challenge);
        return sendJsonRpcError(response, admitted.status, -32000, admitted.message);
      }
      const { client, owner } = admitted;
      const authInfo = authInfoOf(admitted);
      if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
        return sendJsonRpcError(response, 404, -32000, `not found; the MCP endpoint is ${path}`);
      }
      let body: unknown;
      if (request.method === 'POST') {
        try {
          body = await readJsonBody(request, maxBodyBytes);
        } catch (error) {
          if (!(error instanceof BodyError)) throw error;
          return sendBodyError(response, error);
        }
      }
      const id = request.headers['mcp-session-id'];
      if (id === undefined && request.method === 'POST' && (await modern.isModern(request, body))) {
        return modern.serve(request, response, body, authInfo);
      }
      if (typeof id === 'string') {
        const session = sessions.get(id);
        if (!session || session.owner !== owner) {
          return sendJsonRpcError(
            response,
            404,
            -32001,
            'no such session for this client; initialize a new one',
          );
        }
        session.open++;
        response.once('close', () => {
          session.open--;
          session.idleSince = performance.now();
        });
        // the SDK hands `request.auth` to the session's handlers as `extra.authInfo`
        return session.transport.handleRequest(Object.assign(request, { auth: authInfo }), response, body);
      }
      if (request.method !== 'POST' || !isInitializeRequest(body)) {
        return sendJsonRpcError(
          response,
          400,
          -32000,
          'no session: send an initialize request first (without mcp-session-id)',
        );
      }
      const held = [...sessions.values()].filter((session) => session.client === client).length;
      if (held >= maxSessions) return refuseSession(response, gateway, client, maxSessions);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // resumable streams: a priming event with the retry time, and a bounded replay (session-events.ts)
        eventStore: sessionEventStore(),
        retryInterval: streamRetryMs,
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, { client, owner, transport, open: 0, idleSince: performance.now() });
          void gateway.note('client.connected', { client, transport: 'http' }).catch(() => undefined);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await createSessionServer(gateway, client).connect(transport);
      await transport.handleRequest(Object.assign(request, { auth: authInfo }), response, body);
    },
    { ...options, token: undefined },
  );
  resourceUrl = listener.url;
  return {
    url: listener.url,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweeper);
      await modern.close();
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      await listener.close();
      await auth.flushRefusals(); // the summary of refusals not recorded one by one
    },
  };
}

/**
 * Every client that may connect over HTTP has a token, set, 16 characters or more, and no two share
 * one. A problem is an INVALID_DEFINITION error naming the config file and the client's `token_env`.
 */
export function checkTokens(config: GatewayConfig, env: NodeJS.ProcessEnv): void {
  const seen = new Map<string, GatewayClient>();
  let any = false;
  for (const client of config.clients.values()) {
    if (client.tokenEnv === undefined) continue;
    any = true;
    const key = `${config.source}: clients.${client.name}.token_env`;
    const token = env[client.tokenEnv];
    if (token === undefined || token.length < 16) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `${key}: the environment variable ${client.tokenEnv} (its token_env) is ${token === undefined ? 'not set' : 'shorter than 16 characters'}; set it to a long random token`,
      );
    }
    const other = seen.get(token);
    if (other !== undefined) {
      const variables =
        other.tokenEnv === client.tokenEnv
          ? `both read ${client.tokenEnv}`
          : `${other.tokenEnv} and ${client.tokenEnv} hold the same value`;
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `${key}: clients "${other.name}" and "${client.name}" have the same token (${variables}); give each its own`,
      );
    }
    seen.set(token, client);
  }
  if (!any && config.oauth === undefined) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `${config.source}: clients: no client has a token_env and there is no oauth: section, so nobody could connect over HTTP; give a client a token_env, or add oauth: and a client match:`,
    );
  }
}
