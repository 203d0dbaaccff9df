import type { CallObserver } from '@toolgate/core';
import type { GatewayConfig } from '../config-types.js';

/** The gateway's span export, while it runs. */
export interface RunningTelemetry {
  observer: CallObserver;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Starts exporting the gateway's calls as OpenTelemetry spans when the config's `telemetry:` or
 * the standard `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` names an
 * OTLP/HTTP receiver; undefined (and nothing of OpenTelemetry loaded) when neither does. Each span
 * carries the MCP method (`mcp.method.name: tools/call`) and the client (`mcp.client.name`).
 */
export async function startTelemetry(
  config: GatewayConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningTelemetry | undefined> {
  const configured = config.telemetry;
  const fromEnv =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
  if (configured === undefined && fromEnv === undefined) return undefined;
  const { otlpEndpointFromEnv, startOtlpTelemetry } = await import('@toolgate/otel');
  return startOtlpTelemetry({
    endpoint: configured?.endpoint ?? otlpEndpointFromEnv(env),
    ...(configured?.headers === undefined ? {} : { headers: configured.headers }),
    serviceName: configured?.serviceName ?? (env.OTEL_SERVICE_NAME?.trim() || 'toolgate-gateway'),
    attributes: { 'mcp.method.name': 'tools/call' },
    callAttributes: (call) => ({ 'mcp.client.name': call.agent }),
  });
}
