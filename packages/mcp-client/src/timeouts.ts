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
