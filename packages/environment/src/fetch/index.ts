/**
 * Fetch: URL and address rules (no internal addresses unless allowed), the SSRF-safe request, its redirect hops.
 *
 * @module
 */
export { addressRange, isPublicAddress } from './address-rules.js';
export {
  fetchLocal,
  type HostAddress,
  type HostResolver,
  type NetworkRules,
  systemResolver,
} from './local-fetch.js';
export { assertNoHostHeader, checkUrl, hostAllowList } from './url-rules.js';
