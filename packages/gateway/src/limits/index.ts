export { limitedGrant } from './limited-grant.js';
export { type RateLimit, RateLimiter, rateLimitOf, rateLimitSchema } from './rate-limiter.js';
