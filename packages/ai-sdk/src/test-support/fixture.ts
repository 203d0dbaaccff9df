import {
  defineTool,
  type Policy,
  ToolGate,
  type ToolGateOptions,
  ToolRegistry,
  toolResult,
} from '@toolgate/core';
import { LedgerRecorder, MemoryStore, readAll, steppingClock } from '@toolgate/ledger';
import { z } from 'zod';

/** What the tools saw: every start and end, in order, and whether two ever overlapped. */
export interface Trace {
  events: string[];
  running: number;
  overlapped: boolean;
  signals: AbortSignal[];
}

/** The test tools: one parallel-safe, one not (slow first), one that waits for its signal, one with an image. */
export function testRegistry(trace: Trace): ToolRegistry {
  const enter = (what: string) => {
    trace.events.push(`start ${what}`);
    if (++trace.running > 1) trace.overlapped = true;
  };
  const leave = (what: string) => {
    trace.running--;
    trace.events.push(`end ${what}`);
  };
  return new ToolRegistry()
    .register(
      defineTool({
        name: 'oracle',
        description: 'Draws an omen from a seed.',
        input: z.object({ seed: z.string().describe('any text') }),
        run: ({ seed }) => ({ omen: `the moss remembers ${seed}` }),
        parallelSafe: true,
        policySubject: () => ({}),
      }),
    )
    .register(
      defineTool({
        name: 'write_note',
        description: 'Appends a note; slow for long notes.',
        input: z.object({ text: z.string().describe('the note') }),
        run: async ({ text }) => {
          enter(text);
          // the first (longer) note takes longer: run concurrently, the second would finish first
          for (let turn = 0; turn < text.length * 20; turn++) await Promise.resolve();
          leave(text);
          return { written: text.length };
        },
        policySubject: () => ({}),
      }),
    )
    .register(
      defineTool({
        name: 'peek',
        description: 'Looks, and only looks: parallel-safe. Waits (up to 20 s) to see another peek start.',
        input: z.object({ at: z.string().describe('where to look') }),
        run: async ({ at }) => {
          enter(at);
          for (let waited = 0; !trace.overlapped && waited < 2_000; waited++)
            await new Promise((resolve) => setTimeout(resolve, 10));
          leave(at);
          return { saw: at };
        },
        parallelSafe: true,
        policySubject: () => ({}),
      }),
    )
    .register(
      defineTool({
        name: 'wait',
        description: 'Waits until it is cancelled.',
        input: z.object({}),
        run: (_parameters, { signal }) => {
          trace.signals.push(signal);
          trace.events.push('waiting');
          return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
        },
        policySubject: () => ({}),
      }),
    )
    .register(
      defineTool({
        name: 'survey',
        description: 'Counts what grows; its keys are not in canonical order.',
        input: z.object({}),
        run: () => ({ zebra: 1, moss: { tall: 2, deep: [{ y: 1, x: 2 }] } }),
        parallelSafe: true,
        policySubject: () => ({}),
      }),
    )
    .register(
      defineTool({
        name: 'sketch',
        description: 'Draws a tiny picture.',
        input: z.object({ title: z.string().describe('what to draw') }),
        run: ({ title }) =>
          toolResult({
            output: { title },
            content: [
              { type: 'text', text: `a sketch of ${title}` },
              { type: 'image', data: Buffer.from('PNG bytes').toString('base64'), mimeType: 'image/png' },
            ],
          }),
        policySubject: () => ({}),
      }),
    );
}

/** Call ids `c1`, `c2` … */
export function counter(): () => string {
  let next = 0;
  return () => `c${++next}`;
}

/** A gate over the test tools writing a hash-chained ledger in memory, with deterministic ids and clock. */
export function recordedGate(policy?: Policy, options: Partial<ToolGateOptions> = {}) {
  const trace: Trace = { events: [], running: 0, overlapped: false, signals: [] };
  const store = new MemoryStore({ clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: 'run-1' });
  let tick = 0;
  const gate = new ToolGate(testRegistry(trace), {
    recorder,
    callIds: counter(),
    clock: () => tick++,
    ...(policy === undefined ? {} : { policy }),
    ...options,
  });
  return { gate, store, recorder, trace, events: async () => readAll(store.read()) };
}
