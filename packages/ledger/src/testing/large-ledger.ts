import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { type ChainHead, type EventDraft, emptyHead, sealEvent } from '../chain/index.js';

/** What {@link writeLargeLedger} wrote. */
export interface LargeLedger {
  /** How many records. */
  readonly records: number;
  /** How many calls failed (every tenth). */
  readonly failed: number;
  /** The call ids holding the search term `needle-<n>`: the calls whose number ends in 077. */
  readonly needles: number;
}

/**
 * Writes a ledger of `calls` tool calls (three records each, as the recorder writes them: called,
 * decided, returned) by three agents in one run, sealed onto the chain directly: a large ledger in
 * a second or two, every record as the file store would have written it. Every tenth call fails.
 */
export async function writeLargeLedger(path: string, calls: number, padding = 0): Promise<LargeLedger> {
  const out = createWriteStream(path);
  let head: ChainHead = emptyHead;
  let lines: string[] = [];
  let failed = 0;
  let needles = 0;
  const pad = 'x'.repeat(padding);
  const append = async (draft: EventDraft) => {
    const sealed = sealEvent(draft, head, new Date(Date.UTC(2026, 0, 1, 0, 0, 0, head.seq)).toISOString());
    head = { seq: head.seq + 1, hash: sealed.event.hash };
    lines.push(sealed.line);
    if (lines.length >= 4096) {
      if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
      lines = [];
    }
  };
  for (let call = 0; call < calls; call++) {
    const actor = ['teller', 'critic', 'scribe'][call % 3]!;
    const callId = `call-${call}`;
    const tool = call % 2 ? 'oracle' : 'scroll';
    const needle = call % 1000 === 77;
    if (needle) needles++;
    const common = { runId: 'big-1', actor, turn: call };
    await append({
      ...common,
      kind: 'tool.called',
      payload: { callId, tool, parameters: { seed: needle ? `needle-${call}` : `seed ${call}`, pad } },
    });
    await append({
      ...common,
      kind: 'policy.decided',
      payload: { callId, tool, verdict: 'allow', decision: 'allow', reason: 'harmless' },
    });
    const fails = call % 10 === 9;
    if (fails) failed++;
    await append({
      ...common,
      kind: 'tool.returned',
      payload: fails
        ? { callId, tool, isError: true, error: { code: 'TOOL_FAILED', message: `cracked ${call}` } }
        : { callId, tool, isError: false, output: { omen: `the stone remembers ${call}` } },
    });
  }
  out.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
  out.end();
  await once(out, 'finish');
  return { records: head.seq, failed, needles };
}
