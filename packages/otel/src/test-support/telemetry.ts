import { context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/** A reader collected on demand: what a test reads the meter's measurements from. */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/**
 * A real OpenTelemetry SDK for a test: a tracer whose spans go to an in-memory exporter (and
 * `exporter`, if given), a meter read on demand, and the AsyncLocalStorage context manager that
 * makes a span active across awaits (what an app's NodeSDK registers). `close()` undoes it all.
 */
export function telemetry(exporter?: SpanExporter) {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor(memory),
      ...(exporter === undefined ? [] : [new SimpleSpanProcessor(exporter)]),
    ],
  });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const tracer: Tracer = provider.getTracer('test');
  return {
    tracer,
    meter: meterProvider.getMeter('test'),
    spans: (): ReadableSpan[] => memory.getFinishedSpans(),
    /** Each metric's data points as `{ attributes, value }`, by metric name. */
    async metrics(): Promise<Record<string, { attributes: Record<string, unknown>; value: unknown }[]>> {
      const { resourceMetrics } = await reader.collect();
      const found: Record<string, { attributes: Record<string, unknown>; value: unknown }[]> = {};
      for (const scope of resourceMetrics.scopeMetrics)
        for (const metric of scope.metrics)
          found[metric.descriptor.name] = metric.dataPoints.map((point) => ({
            attributes: point.attributes,
            value: point.value,
          }));
      return found;
    },
    async close(): Promise<void> {
      await provider.forceFlush();
      await provider.shutdown();
      await meterProvider.shutdown();
      context.disable();
    },
  };
}

/** The span named `name`; fails the test when there is none or more than one. */
export function onlySpan(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1)
    throw new Error(
      `expected one span "${name}", found ${found.length}: ${spans.map((span) => span.name).join(', ')}`,
    );
  return found[0]!;
}
