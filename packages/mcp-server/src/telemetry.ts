import type { CallObserver } from '@toolgate/core';

/** `toolgate-mcp`'s span export, while it runs. */
export interface ServerTelemetry {
  observer: CallObserver;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Starts exporting every call of `toolgate-mcp`'s gate as an OpenTelemetry span over OTLP/HTTP when
 * the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set;
 * undefined, with nothing of OpenTelemetry loaded, when neither is. Spans carry the MCP method
 * (`mcp.method.name: tools/call`); the service name is `OTEL_SERVICE_NAME`, else `toolgate-mcp`.
 */
export async function startServerTelemetry(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServerTelemetry | undefined> {
  const endpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
  if (endpoint === undefined) return undefined;
  const { otlpEndpointFromEnv, startOtlpTelemetry } = await import('@toolgate/otel');
  return startOtlpTelemetry({
    endpoint: otlpEndpointFromEnv(env) ?? endpoint,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'toolgate-mcp',
    attributes: { 'mcp.method.name': 'tools/call' },
  });
}
