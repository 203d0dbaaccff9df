/**
 * The request `_meta` key under which a toolgate client (`MCPResolver`) tells a server how long it
 * waits for a `tools/call`: the milliseconds left to its caller's deadline when it sent the request.
 * Relative, so the two machines' clocks need not agree.
 */
export const callerTimeKey = 'io.github.toolgate/timeoutMs';

/**
 * The deadline (ms since the epoch, as `context.deadline`) a request's `_meta` carries under
 * {@link callerTimeKey}, counted from `now` (when it arrived); `undefined` when it carries none or
 * not a number. A caller with no time left gets a deadline 1 ms away (its call ends with TIMEOUT).
 *
 * @example
 * server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
 *   callExposed({ gate, grant, tool: request.params.name, parameters: request.params.arguments,
 *     options: { signal: extra.signal, deadline: callerDeadline(request.params._meta) } }));
 */
export function callerDeadline(meta: unknown, now = Date.now()): number | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const value: unknown = (meta as Record<string, unknown>)[callerTimeKey];
  if (typeof value !== 'number' || Number.isNaN(value)) return undefined;
  return now + Math.max(1, value);
}
