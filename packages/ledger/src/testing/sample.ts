import { writeFileSync } from 'node:fs';
import { steppingClock } from '../chain/clock.js';
import type { LedgerEvent } from '../chain/event.js';
import { MemoryStore } from '../memory-store.js';

/** Writes a small ledger of two runs (a call, a failed call, a spoken omen) to `path`. */
export async function writeSampleLedger(path: string): Promise<LedgerEvent[]> {
  const store = new MemoryStore({ clock: steppingClock() });
  const events = [
    await store.append({ runId: 'a', kind: 'run.started', actor: 'system' }),
    await store.append({
      runId: 'a',
      kind: 'tool.called',
      actor: 'teller',
      payload: { callId: 'c1', tool: 'oracle', parameters: { seed: 'moss' } },
    }),
    await store.append({
      runId: 'a',
      kind: 'tool.returned',
      actor: 'teller',
      payload: {
        callId: 'c1',
        tool: 'oracle',
        isError: true,
        error: { code: 'TOOL_FAILED', message: 'cracked' },
      },
    }),
    await store.append({ runId: 'b', kind: 'oracle.spoke', actor: 'oracle', payload: { omen: 'rain' } }),
  ];
  writeFileSync(path, store.toJsonl());
  return events;
}
