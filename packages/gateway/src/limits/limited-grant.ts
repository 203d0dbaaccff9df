import { type Grant, ToolgateError } from '@toolgate/core';
import type { GatewayConfig } from '../config-types.js';
import type { RateLimiter } from './rate-limiter.js';

/** What {@link limitedGrant} takes: the client's grant for this call and the limiter of its limits. */
export interface LimitedGrantOptions {
  limiter: RateLimiter;
  config: GatewayConfig;
  client: string;
  tool: string;
  grant: Grant;
}

/**
 * The grant one call runs under, after the client's `rate_limit:`: its own grant when the call is
 * within the limits (call `release` when it ends), else a grant that allows nothing and whose
 * refusal is `RATE_LIMITED` naming the limit — so the gate records the refusal as it records any
 * other (`tool.called`, then `tool.returned` with the error) and asks neither policy nor an
 * upstream. A call its grant refuses anyway takes nothing from the limits.
 */
export function limitedGrant(options: LimitedGrantOptions): { grant: Grant; release: () => void } {
  const { limiter, config, client, tool, grant } = options;
  const limit = config.clients.get(client)?.rateLimit;
  if (limit === undefined || !grant.allows(tool)) return { grant, release: () => undefined };
  const admission = limiter.admit(client, limit, `clients.${client}.rate_limit in ${config.source}`);
  if ('release' in admission) return { grant, release: admission.release };
  const refusal = new ToolgateError('RATE_LIMITED', admission.refusal);
  return { grant: { ...grant, allows: () => false, refusal: () => refusal }, release: () => undefined };
}
