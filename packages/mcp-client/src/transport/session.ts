import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ParamHeader } from '@toolgate/core/internal';
import type { ResolvedLimits } from '../limits.js';
import { packageVersion } from '../package-version.js';
import { isStdioConfig, type McpServerConfig } from '../server-config.js';
import { outputSchemasNotValidated } from '../tools/output-validator.js';
import { NotificationGuard, TokenBucket } from './notification-guard.js';
import { answeringWithDefaults, askingRequests, clientCapabilities } from './server-requests.js';
import { serverTransport, stdioFault } from './server-transport.js';
import { serverProcess } from './stdio-eras.js';

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

/**
 * What a new session tells its connection — it broke (drop it), or its client closed (forget it) —
 * and asks of it: a listed tool's `x-mcp-header` declarations, for the headers of its calls.
 */
export interface SessionHooks {
  drop(session: Session): void;
  forget(session: Session): void;
  paramHeaders(tool: string): readonly ParamHeader[] | undefined;
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

/**
 * A session for `config`: its SDK client (capabilities only for the server requests its config
 * answers, an accepted elicitation given its schema's defaults; output schemas not compiled), its
 * transport held to `limits`, the notification guard in front, the tail of a stdio child's stderr
 * kept (and passed to `onStderr`), and every fault the transport reports marking the session
 * broken and dropped.
 */
export function newSession(config: McpServerConfig, limits: ResolvedLimits, hooks: SessionHooks): NewSession {
  const client = new Client(
    { name: 'toolgate', version: packageVersion },
    {
      capabilities: clientCapabilities(config),
      jsonSchemaValidator: outputSchemasNotValidated,
    },
  );
  if (config.onServerRequest) {
    const onServerRequest = answeringWithDefaults(config.onServerRequest);
    for (const schema of askingRequests) {
      client.setRequestHandler(schema, (request, extra) =>
        onServerRequest(request as { method: string; params?: Record<string, unknown> }, extra.signal),
      );
    }
  }
  const session: Session = { client, transport: undefined!, fault: undefined, stderr: '', closed: false };
  const transport = serverTransport(config, limits, {
    onFault: (fault) => {
      session.fault ??= fault;
      hooks.drop(session);
    },
    paramHeaders: (tool) => hooks.paramHeaders(tool),
  });
  session.transport = transport;
  const bucket = new TokenBucket(limits.maxNotificationsPerSecond);
  const guarded = new NotificationGuard(transport, bucket);
  const child = serverProcess(transport);
  if (child) {
    child.stderr.on('data', (chunk: Buffer) => {
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

/** The notifications handed to a config's `onNotification`. */
const passedOnNotifications = [
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
] as const;

/**
 * Sets a connected client's notification handlers: `list_changed` of tools to `onToolsChanged`,
 * the ones a config's `onNotification` takes, and log messages to its `onLog` with the count of
 * notifications the rate limit (`bucket`) dropped since the last.
 */
export function listenToNotifications(
  client: Client,
  config: McpServerConfig,
  { onToolsChanged, bucket }: { onToolsChanged: () => void; bucket: TokenBucket },
): void {
  client.setNotificationHandler(ToolListChangedNotificationSchema, onToolsChanged);
  const onNotification = config.onNotification;
  if (onNotification) {
    for (const schema of passedOnNotifications) {
      client.setNotificationHandler(schema, (notification) => onNotification(notification));
    }
  }
  const onLog = config.onLog;
  if (onLog) {
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) =>
      onLog({
        server: config.name,
        level: params.level,
        ...(params.logger === undefined ? {} : { logger: params.logger }),
        data: params.data,
        dropped: bucket.takeDropped(),
      }),
    );
  }
}
