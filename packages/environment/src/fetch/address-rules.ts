import { ToolgateError } from '@toolgate/core';
import ipaddr from 'ipaddr.js';

/**
 * The range an IP address falls in, as ipaddr.js names it (`unicast` for public addresses). An
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function addressRange(address: string): string {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return 'invalid';
  return ipaddr.process(bare).range();
}

/**
 * True when an address is public. Everything else is refused by default: loopback, private,
 * link-local, carrier-grade NAT, unique-local, unspecified, multicast, broadcast, reserved and the
 * IPv6 ranges that embed an IPv4 address (6to4, NAT64, Teredo).
 */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/** Refuses a non-public address unless its host was allowed explicitly. */
export function assertAddressAllowed(address: string, host: string, allowed: boolean): void {
  if (allowed || isPublicAddress(address)) return;
  throw new ToolgateError(
    'NETWORK_REFUSED',
    `refused to connect to ${host} at ${address} (${addressRange(address)} address); ` +
      "internal addresses are reachable only through the environment's allow-list of hosts",
  );
}
