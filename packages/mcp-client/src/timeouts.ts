/**
 * How long a server may take when nobody said how long to wait: its handshake and `tools/list`,
 * and a call that comes with no deadline (a call through a gate comes with one: its budget). A
 * server's config `timeoutMs` sets both for that server.
 */
export const defaultTimeoutMs = 60_000;

/** How long a call without a deadline of its own may take, when its server's config sets no `timeoutMs`. */
export const defaultCallTimeoutMs = 60_000;

/** How long past a caller's deadline the connection waits before it gives up on a call itself (the caller has cancelled it by then). */
export const deadlineGraceMs = 1000;

/**
 * The request `_meta` key under which a call tells its server how long the caller waits: the ms
 * left to the caller's deadline (`@toolgate/mcp-server`'s `callerTimeKey`; toolgate-mcp ends the
 * call by then, so a command is stopped while its output can still reach the caller).
 */
const callerTimeKey = 'io.github.toolgate/timeoutMs';

/** The `_meta` of a call with the caller's time left, or none for a call with no deadline. */
export function callerTimeMeta(deadline: number | undefined): { _meta?: Record<string, number> } {
  if (deadline === undefined || !Number.isFinite(deadline)) return {};
  return { _meta: { [callerTimeKey]: Math.max(1, Math.ceil(deadline - Date.now())) } };
}
