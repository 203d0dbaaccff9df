export { type RunningTelemetry, startTelemetry } from './start-telemetry.js';
