import type { Meter, Tracer } from '@opentelemetry/api';
import { defineTool, type Policy, ToolGate, type ToolGateOptions, ToolRegistry } from '@toolgate/core';
import { LedgerRecorder, MemoryStore, readAll, steppingClock } from '@toolgate/ledger';
import { z } from 'zod';
import { otelObserver } from '../otel-observer.js';

/** A gate over two small tools, observed by `otelObserver`, recording to a ledger in memory. */
export function observedGate(
  telemetry: { tracer: Tracer; meter: Meter },
  policy?: Policy,
  options: Partial<ToolGateOptions> = {},
) {
  const registry = new ToolRegistry()
    .register(
      defineTool({
        name: 'oracle',
        description: 'Draws an omen from a seed.',
        input: z.object({ seed: z.string().describe('any text') }),
        run: ({ seed }) => ({ omen: `the moss remembers ${seed}` }),
        policySubject: () => ({}),
      }),
    )
    .register(
      defineTool({
        name: 'write_note',
        description: 'Writes a note.',
        input: z.object({ text: z.string().describe('the note') }),
        run: ({ text }) => ({ written: text.length }),
        policySubject: () => ({}),
      }),
    );
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'run-1' });
  let next = 0;
  const gate = new ToolGate(registry, {
    recorder,
    callIds: () => `c${++next}`,
    observer: otelObserver({ tracer: telemetry.tracer, meter: telemetry.meter }),
    ...(policy === undefined ? {} : { policy }),
    ...options,
  });
  return { gate, events: () => readAll(store.read()) };
}
