import { describe, expect, it } from 'vitest';
import type { Gateway } from '../gateway.js';
import { CallsInFlight } from './calls-in-flight.js';
import { passRequest } from './pass-request.js';

/** The parts of a gateway passRequest touches: its calls in flight, its log and its ledger notes. */
function gatewayParts() {
  const notes: Array<{ kind: string; payload: Record<string, unknown> }> = [];
  const logged: string[] = [];
  const gateway = {
    callsInFlight: new CallsInFlight(),
    log: (line: string) => logged.push(line),
    note: async (kind: string, payload: Record<string, unknown>) => {
      notes.push({ kind, payload });
    },
    config: { source: 'gateway.yaml' },
    client: () => undefined,
  } as unknown as Gateway;
  return { gateway, notes, logged };
}

describe('roots/list outside any call', () => {
  it('is answered with no roots every time, and recorded once per upstream, not at every session start', async () => {
    const { gateway, notes, logged } = gatewayParts();
    const signal = new AbortController().signal;
    for (const server of ['files', 'files', 'files', 'memory']) {
      expect(await passRequest(gateway, server, { method: 'roots/list' }, signal)).toEqual({ roots: [] });
    }
    expect(notes).toEqual([
      {
        kind: 'upstream.asked',
        payload: {
          server: 'files',
          method: 'roots/list',
          outcome: 'declined',
          reason: 'no client call is in progress on it',
        },
      },
      {
        kind: 'upstream.asked',
        payload: {
          server: 'memory',
          method: 'roots/list',
          outcome: 'declined',
          reason: 'no client call is in progress on it',
        },
      },
    ]);
    expect(logged).toHaveLength(2);
  });

  it('still records every elicitation declined outside a call', async () => {
    const { gateway, notes } = gatewayParts();
    const signal = new AbortController().signal;
    for (let round = 0; round < 2; round += 1) {
      expect(await passRequest(gateway, 'files', { method: 'elicitation/create' }, signal)).toEqual({
        action: 'decline',
      });
    }
    expect(notes).toHaveLength(2);
  });
});
