export { limitedGrant } from './limited-grant.js';
export { RateLimiter } from './rate-limiter.js';
