export { type FleetSettings, fleetSchema, fleetSettings } from './fleet-config.js';
export { type ApprovalOutcome, type FleetReview, FleetStore, type PendingApproval } from './fleet-store.js';
export { GatewayFleet } from './gateway-fleet.js';
