/**
 * @toolgate/otel: OpenTelemetry for every toolgate call — a span per call following the GenAI
 * semantic conventions with the gate's verdict, approver and ledger seq on it, status ERROR for
 * every refusal and failure, and metrics for calls, refusals and latency. `@opentelemetry/api` is
 * a peer: bring your own SDK and exporter, or let `startOtlpTelemetry` load the SDK and an OTLP/HTTP
 * exporter (optional peers) when it is called.
 *
 * @module
 */

export { type OtelObserverOptions, otelObserver } from './otel-observer.js';
export {
  type OtlpTelemetry,
  type OtlpTelemetryOptions,
  otlpEndpointFromEnv,
  startOtlpTelemetry,
} from './otlp-telemetry.js';
