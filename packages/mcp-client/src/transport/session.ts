import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedLimits } from '../limits.js';
import { packageVersion } from '../package-version.js';
import { isStdioConfig, type McpServerConfig } from '../server-config.js';
import { outputSchemasNotValidated } from '../tools/output-validator.js';
import { NotificationGuard, TokenBucket } from './notification-guard.js';
import { serverTransport, stdioFault } from './server-transport.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

/** One session of an {@link McpConnection}: an SDK client on its transport, and what it saw go wrong. */
export interface Session {
  readonly client: Client;
  /** The SDK transport (inside the notification guard the client talks to). */
  transport: Transport;
  /** Why the session broke, when the transport said so (junk on stdout, a dead pipe). */
  fault: string | undefined;
  stderr: string;
  closed: boolean;
}

/** What a new session tells its connection: it broke (drop it), or its client closed (forget it). */
export interface SessionHooks {
  drop(session: Session): void;
  forget(session: Session): void;
}

/** A session not yet connected, with the guarded transport to connect its client on. */
export interface NewSession {
  session: Session;
  /** The transport inside the notification guard: what `session.client.connect` is given. */
  guarded: NotificationGuard;
  /** The notification rate limit, whose dropped count goes with each log message. */
  bucket: TokenBucket;
}

const stderrTail = 2000;

/** What the client declares to a server when its config answers the server's requests. */
const askingCapabilities = { elicitation: {}, sampling: {}, roots: { listChanged: false } };
/** The requests handed to a config's `onServerRequest`. */
const askingRequests = [ElicitRequestSchema, CreateMessageRequestSchema, ListRootsRequestSchema] as const;

/**
 * A session for `config`: its SDK client (capabilities only for the server requests its config
 * answers, output schemas not compiled), its
 * transport held to `limits`, the notification guard in front, the tail of a stdio child's stderr
 * kept (and passed to `onStderr`), and every fault the transport reports marking the session
 * broken and dropped.
 */
export function newSession(config: McpServerConfig, limits: ResolvedLimits, hooks: SessionHooks): NewSession {
  const client = new Client(
    { name: 'toolgate', version: packageVersion },
    {
      capabilities: config.onServerRequest === undefined ? {} : askingCapabilities,
      jsonSchemaValidator: outputSchemasNotValidated,
    },
  );
  const onServerRequest = config.onServerRequest;
  if (onServerRequest) {
    for (const schema of askingRequests) {
      client.setRequestHandler(schema, (request, extra) =>
        onServerRequest(request as { method: string; params?: Record<string, unknown> }, extra.signal),
      );
    }
  }
  const session: Session = { client, transport: undefined!, fault: undefined, stderr: '', closed: false };
  const transport = serverTransport(config, limits, (fault) => {
    session.fault ??= fault;
    hooks.drop(session);
  });
  session.transport = transport;
  const bucket = new TokenBucket(limits.maxNotificationsPerSecond);
  const guarded = new NotificationGuard(transport, bucket);
  if (transport instanceof ProcessGroupStdioTransport) {
    transport.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      session.stderr = (session.stderr + text).slice(-stderrTail);
      if (isStdioConfig(config)) config.onStderr?.(text);
    });
    // Anything the stdio transport reports (junk on stdout, a dead pipe) breaks the stream.
    guarded.onerror = (error) => {
      session.fault ??= stdioFault(error, limits);
      hooks.drop(session);
    };
  }
  client.onclose = () => {
    session.closed = true;
    hooks.forget(session);
  };
  return { session, guarded, bucket };
}
