import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type LoggingLevel, LoggingLevelSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServerLogEntry } from '@toolgate/mcp-client';

/** One connected client session, as the hub tells it about upstream changes. */
export interface HubSession {
  readonly client: string;
  readonly server: Server;
  /** What it was last shown of each list (a canonical text), once it has listed it. */
  readonly seen: { tools?: string; prompts?: string; resources?: string };
  /** The URIs it subscribed to (each granted when subscribed). */
  readonly subscriptions: Set<string>;
  /** The level it set with `logging/setLevel`; it gets no log message before it sets one. */
  logLevel?: LoggingLevel;
}

/** Which of a session's lists an upstream change may have changed. */
export type ListKind = 'tools' | 'prompts' | 'resources';

const severity = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));

/**
 * The gateway's live client sessions, told about what their upstreams change: a list that changed
 * upstream becomes `notifications/<kind>/list_changed` to each session whose view of it changed
 * (what it lists now differs from what it was shown), a resource update goes to the sessions that
 * subscribed to its URI, and an upstream's log message to each session that set a level at or
 * below the message's and whose client is granted something of that upstream.
 */
export class SessionHub {
  readonly #sessions = new Set<HubSession>();
  /** Makes a session's view of a list now, as the canonical text `seen` holds; set by the gateway. */
  view: ((client: string, kind: ListKind) => Promise<string>) | undefined;
  /** True when `client` is granted anything of the upstream `server` (its log messages are then its to see); set by the gateway. */
  concerns: ((client: string, server: string) => boolean) | undefined;

  /** Adds a client's session; it leaves the hub when its server closes. */
  add(client: string, server: Server): HubSession {
    const session: HubSession = { client, server, seen: {}, subscriptions: new Set() };
    this.#sessions.add(session);
    const previous = server.onclose;
    server.onclose = () => {
      this.#sessions.delete(session);
      previous?.();
    };
    return session;
  }

  /** How many sessions are connected. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Tells each session that listed `kind` whose view of it changed (a failing view is left for the next change). */
  async listChanged(kind: ListKind): Promise<void> {
    const view = this.view;
    if (view === undefined) return;
    await Promise.all(
      [...this.#sessions].map(async (session) => {
        const before = session.seen[kind];
        if (before === undefined) return;
        const now = await view(session.client, kind).catch(() => before);
        if (now === before) return;
        session.seen[kind] = now;
        await notify(session, kind).catch(() => undefined);
      }),
    );
  }

  /** Passes `notifications/resources/updated` to the sessions subscribed to `uri`. */
  async resourceUpdated(uri: string): Promise<void> {
    await Promise.all(
      [...this.#sessions]
        .filter((session) => session.subscriptions.has(uri))
        .map((session) => session.server.sendResourceUpdated({ uri }).catch(() => undefined)),
    );
  }

  /** Passes an upstream's log message to every session whose level lets it through. */
  async log(entry: ServerLogEntry): Promise<void> {
    const level = LoggingLevelSchema.safeParse(entry.level);
    if (!level.success) return;
    const rank = severity.get(level.data) ?? 0;
    await Promise.all(
      [...this.#sessions]
        .filter((session) => session.logLevel !== undefined && rank >= (severity.get(session.logLevel) ?? 0))
        .filter((session) => this.concerns?.(session.client, entry.server) === true)
        .map((session) =>
          session.server
            .sendLoggingMessage({ level: level.data, logger: entry.logger ?? entry.server, data: entry.data })
            .catch(() => undefined),
        ),
    );
  }
}

function notify(session: HubSession, kind: ListKind): Promise<void> {
  if (kind === 'tools') return session.server.sendToolListChanged();
  if (kind === 'prompts') return session.server.sendPromptListChanged();
  return session.server.sendResourceListChanged();
}
