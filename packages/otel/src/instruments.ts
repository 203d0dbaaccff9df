import type { Counter, Histogram, Meter } from '@opentelemetry/api';

/** The metrics of every call. */
export interface CallInstruments {
  /** Every call that reached the gate, by tool, agent and outcome (`ok`, `refused`, `failed`). */
  calls: Counter;
  /** Calls the gate refused (grant, unknown tool, parameters, policy), by tool and code. */
  refusals: Counter;
  /** How long each call took, in seconds, by the gate's clock. */
  duration: Histogram;
}

/** The instruments `otelObserver` records into, made once per observer. */
export function callInstruments(meter: Meter): CallInstruments {
  return {
    calls: meter.createCounter('toolgate.calls', {
      description: 'Tool calls that reached the gate',
      unit: '{call}',
    }),
    refusals: meter.createCounter('toolgate.refusals', {
      description:
        'Tool calls the gate refused: not granted, unknown, invalid parameters or denied by policy',
      unit: '{call}',
    }),
    duration: meter.createHistogram('toolgate.call.duration', {
      description: 'How long a tool call took, by the gate clock',
      unit: 's',
    }),
  };
}
