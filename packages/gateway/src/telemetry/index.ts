export { type RunningTelemetry, startTelemetry } from './start-telemetry.js';
export { type GatewayTelemetry, telemetryOf, telemetrySchema } from './telemetry-config.js';
