import { z } from 'zod';

const otlpUrl = z.string().refine((text) => {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}, 'must be an http: or https: URL of an OTLP/HTTP traces receiver, e.g. http://127.0.0.1:4318/v1/traces');

/**
 * The config's `telemetry:` key: where the gateway exports a span per call over OTLP/HTTP.
 *
 * ```yaml
 * telemetry:
 *   otlp_endpoint: http://127.0.0.1:4318/v1/traces
 *   headers: { x-team: agents }   # as written; a secret goes in OTEL_EXPORTER_OTLP_HEADERS
 *   service_name: toolgate-gateway
 * ```
 */
export const telemetrySchema = z.strictObject({
  otlp_endpoint: otlpUrl,
  headers: z.record(z.string(), z.string()).optional(),
  service_name: z.string().min(1).optional(),
});

/** Where the gateway exports its spans (the config's `telemetry:`, or the standard OTLP variables). */
export interface GatewayTelemetry {
  /** The OTLP/HTTP traces URL. */
  endpoint: string;
  headers?: Record<string, string>;
  serviceName?: string;
}

/** The config's `telemetry:` as the gateway uses it. */
export function telemetryOf(file: z.output<typeof telemetrySchema>): GatewayTelemetry {
  return {
    endpoint: file.otlp_endpoint,
    ...(file.headers === undefined ? {} : { headers: file.headers }),
    ...(file.service_name === undefined ? {} : { serviceName: file.service_name }),
  };
}
