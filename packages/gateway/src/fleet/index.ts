export type { FleetSettings } from './fleet-config.js';
export type { PendingApproval } from './fleet-store.js';
export { GatewayFleet } from './gateway-fleet.js';
