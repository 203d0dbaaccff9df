import type { Attributes } from '@opentelemetry/api';
import type { CallObserver } from '@toolgate/core';
import type { ObservedCall } from '@toolgate/core/internal';
import { otelObserver } from './otel-observer.js';

/** What {@link startOtlpTelemetry} is given. */
export interface OtlpTelemetryOptions {
  /** The OTLP/HTTP traces URL (`http://collector:4318/v1/traces`). Default: {@link otlpEndpointFromEnv}. */
  endpoint?: string;
  /** Headers sent with every export (an API key). Default: `OTEL_EXPORTER_OTLP_HEADERS` (`k=v,k2=v2`). */
  headers?: Record<string, string>;
  /** The `service.name` of the spans' resource. Default `OTEL_SERVICE_NAME`, else `toolgate`. */
  serviceName?: string;
  /** Attributes on every span (`mcp.method.name`). */
  attributes?: Attributes;
  /** Attributes of one call's span, from the call (the MCP client a gateway's call came from). */
  callAttributes?: (call: ObservedCall) => Attributes;
}

/** A running OTLP/HTTP export of a gate's spans: its observer, and how to flush and stop it. */
export interface OtlpTelemetry {
  /** The gate's observer: one span per call, exported in batches. */
  readonly observer: CallObserver;
  /** Where the spans go. */
  readonly endpoint: string;
  /** Exports what is still buffered and stops; call it before the process exits. */
  shutdown(): Promise<void>;
}

/**
 * The OTLP/HTTP traces URL the standard environment variables name, or undefined when none does:
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`.
 */
export function otlpEndpointFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Starts exporting a gate's calls as spans over OTLP/HTTP (JSON) to `endpoint`: loads the
 * OpenTelemetry SDK and exporter only now (an app that never calls this never loads them), makes a
 * tracer provider of its own (nothing global is registered) and returns the gate's observer. A bad
 * endpoint is a TypeError naming it.
 *
 * @example
 * const telemetry = await startOtlpTelemetry({ endpoint: 'http://127.0.0.1:4318/v1/traces' });
 * const gate = new ToolGate(registry, { observer: telemetry.observer });
 * // … at exit:
 * await telemetry.shutdown();
 */
export async function startOtlpTelemetry(options: OtlpTelemetryOptions = {}): Promise<OtlpTelemetry> {
  const endpoint = options.endpoint ?? otlpEndpointFromEnv();
  if (endpoint === undefined)
    throw new TypeError(
      'no OTLP endpoint: pass endpoint, or set OTEL_EXPORTER_OTLP_ENDPOINT (e.g. http://127.0.0.1:4318)',
    );
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TypeError(
      `the OTLP endpoint ${JSON.stringify(endpoint)} is not a URL (e.g. http://127.0.0.1:4318/v1/traces)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`the OTLP endpoint ${JSON.stringify(endpoint)} must be an http: or https: URL`);
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const headers = options.headers ?? headersFromEnv(process.env.OTEL_EXPORTER_OTLP_HEADERS);
  const exporter = new OTLPTraceExporter({ url: url.href, headers });
  const serviceName = options.serviceName ?? (process.env.OTEL_SERVICE_NAME?.trim() || 'toolgate');
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const observer = otelObserver({
    tracer: provider.getTracer('@toolgate/otel'),
    ...(options.attributes === undefined ? {} : { attributes: options.attributes }),
    ...(options.callAttributes === undefined ? {} : { callAttributes: options.callAttributes }),
  });
  return { observer, endpoint: url.href, shutdown: () => provider.shutdown() };
}

/** `k=v,k2=v2` (values URL-encoded, as the OpenTelemetry spec writes them) as headers. */
function headersFromEnv(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}
