import {
  type Attributes,
  context,
  type Meter,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { CallObserver } from '@toolgate/core';
import type { CallObservation, ObservedCall, ObservedEnding } from '@toolgate/core/internal';
import { type CallInstruments, callInstruments } from './instruments.js';

/** What {@link otelObserver} may be given. */
export interface OtelObserverOptions {
  /** Where spans go. Default: the global tracer provider's tracer `@toolgate/otel`. */
  tracer?: Tracer;
  /** Where metrics go. Default: the global meter provider's meter `@toolgate/otel`. */
  meter?: Meter;
  /**
   * Attributes put on every span and measurement (the gateway's and `toolgate-mcp`'s
   * `mcp.method.name`, a service's own labels).
   */
  attributes?: Attributes;
  /**
   * Attributes of one call's span, from the call as it arrives (a gateway's `mcp.client.name`: the
   * client is the call's agent there).
   */
  callAttributes?: (call: ObservedCall) => Attributes;
}

/** The codes of a call the gate refused, as opposed to one that ran and failed. */
const refusalCodes = new Set([
  'CAPABILITY_VIOLATION',
  'UNKNOWN_TOOL',
  'INVALID_PARAMETERS',
  'PERMISSION_DENIED',
]);

/**
 * A gate observer (`new ToolGate(registry, { observer: otelObserver() })`) that makes one span per
 * call, following the OpenTelemetry GenAI semantic conventions — `execute_tool {tool}`,
 * `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id` (the gate's call id) — with
 * toolgate's own attributes: the agent and its grant, policy's verdict, rule and layer, who answered
 * an `ask`, and the ledger's run id and seq of the call's `tool.returned`. A refusal or failure
 * sets status ERROR and `error.type` to its code. Each span starts in the context active when the
 * call reaches the gate, so it nests under the framework's span (an AI SDK or Agents tool span).
 * Metrics: `toolgate.calls` and `toolgate.refusals` (counters) and `toolgate.call.duration`
 * (a histogram, in seconds).
 *
 * @example
 * const gate = new ToolGate(registry, { recorder, observer: otelObserver() });
 */
export function otelObserver(options: OtelObserverOptions = {}): CallObserver {
  const tracer = options.tracer ?? trace.getTracer('@toolgate/otel');
  const instruments = callInstruments(options.meter ?? metrics.getMeter('@toolgate/otel'));
  const shared = options.attributes ?? {};
  return {
    callStarted(call) {
      const span = tracer.startSpan(
        `execute_tool ${call.tool}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: { ...shared, ...callAttributes(call), ...options.callAttributes?.(call) },
        },
        context.active(),
      );
      return observation(span, call, instruments, shared);
    },
  };
}

function callAttributes(call: ObservedCall): Attributes {
  return {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.tool,
    'gen_ai.tool.call.id': call.callId,
    'gen_ai.tool.type': 'function',
    'toolgate.agent': call.agent,
    'toolgate.call.id': call.callId,
    'toolgate.grant': [...call.granted],
  };
}

function observation(
  span: Span,
  call: ObservedCall,
  instruments: CallInstruments,
  shared: Attributes,
): CallObservation {
  return {
    decided({ verdict, answer, allowed }) {
      span.setAttribute('toolgate.policy.verdict', verdict.decision);
      span.setAttribute('toolgate.policy.decision', allowed ? 'allow' : 'deny');
      span.setAttribute('toolgate.policy.reason', verdict.reason);
      if (verdict.rule !== undefined) span.setAttribute('toolgate.policy.rule', verdict.rule);
      if (verdict.layer !== undefined) span.setAttribute('toolgate.policy.layer', verdict.layer);
      if (answer === undefined) return;
      span.setAttribute('toolgate.approval.from', answer.from);
      span.setAttribute('toolgate.approval.approved', answer.approved);
      if (answer.by !== undefined) span.setAttribute('toolgate.approval.by', answer.by);
    },
    ended(ending: ObservedEnding) {
      if (ending.ledger !== undefined) {
        span.setAttribute('toolgate.ledger.run_id', ending.ledger.runId);
        span.setAttribute('toolgate.ledger.seq', ending.ledger.seq);
      }
      const measured: Attributes = { ...shared, 'gen_ai.tool.name': call.tool, 'toolgate.agent': call.agent };
      if (ending.isError && ending.error !== undefined) {
        const { code, message } = ending.error;
        const refused = refusalCodes.has(code);
        span.setAttribute('error.type', code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: `${code}: ${message}` });
        measured['error.type'] = code;
        measured['toolgate.outcome'] = refused ? 'refused' : 'failed';
        if (refused) instruments.refusals.add(1, measured);
      } else {
        measured['toolgate.outcome'] = 'ok';
      }
      instruments.calls.add(1, measured);
      instruments.duration.record(ending.durationMs / 1000, measured);
      span.end();
    },
  };
}
