import {
  exactGrant,
  type Grant,
  type JsonValue,
  type Recorder,
  ToolGate,
  ToolgateError,
  type ToolResult,
} from '@toolgate/core';
import type { PolicyDecidedRecord, ToolCalledRecord, ToolReturnedRecord } from '@toolgate/core/internal';
import {
  FileStore,
  type LedgerEvent,
  LedgerRecorder,
  type LedgerStore,
  ReplaySession,
  readAll,
  replayRegistry,
} from '@toolgate/ledger';
import { isPostgresUrl, PostgresStore } from '@toolgate/ledger-postgres';
import { isLedgerDirectory } from './ledger-directory.js';
import { readLedger } from './ledger-open.js';

/**
 * Replays a gateway's ledger with every upstream off, writing the replay to `target`: each recorded
 * call goes again through a gate whose policy, approver and results are the recording's (the
 * ledger's `ReplaySession`), as the client that made it; the gateway's own events (started, client
 * connected, tool changed, reloaded) are written again as recorded, and every event is written in
 * the recorded order (an upstream's tool change recorded in the middle of a call stays there), so
 * the replay is byte-identical to the recording. Returns how many calls were replayed.
 *
 * `source` is a ledger file, a `postgres://…?ledger=NAME` URL (verified before it is replayed), or
 * an open `LedgerStore` (read as it is). `target` is a file, or a `postgres://` URL naming a new
 * ledger (the replay stamps its records with the recorded times, so its hashes are the recording's).
 *
 * @example
 * await replayGatewayLedger('gateway.ledger.jsonl', 'replayed.jsonl');
 * await replayGatewayLedger('postgres://gateway@db:5432/audit?ledger=desk', 'replayed.jsonl');
 */
export async function replayGatewayLedger(source: string | LedgerStore, target: string): Promise<number> {
  if (typeof source === 'string' && isLedgerDirectory(source)) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `${source} is a ledger directory (one chain per gateway process); replay one of its chain files`,
    );
  }
  const events = typeof source === 'string' ? await readLedger(source) : await readAll(source.read());
  const stamps = events.map((event) => new Date(event.at));
  let stamp = 0;
  const clock = () => stamps[stamp++] ?? new Date();
  const store = isPostgresUrl(target)
    ? await PostgresStore.open(target, { clock })
    : await FileStore.open(target, { durability: 'none', clock });
  const calls: Promise<ToolResult>[] = [];
  try {
    const runs = new Map<string, { recorder: LedgerRecorder; gate: ToolGate }>();
    const outcome = new Map<string, LedgerEvent>();
    for (const event of events) if (event.kind === 'tool.returned') outcome.set(callIdOf(event), event);
    const sequencer = new Sequencer();
    const callIds: string[] = [];
    for (const event of events) {
      let run = runs.get(event.runId);
      if (!run) {
        const session = new ReplaySession(events, { runId: event.runId, mode: 'lenient' });
        const recorder = new LedgerRecorder(store, { runId: event.runId });
        const gate = new ToolGate(
          replayRegistry(session),
          session.gateOptions({
            recorder: sequencer.recorder(recorder),
            callIds: () => callIds.shift() ?? 'unrecorded',
          }),
        );
        run = { recorder, gate };
        runs.set(event.runId, run);
      }
      run.recorder.setTurn(event.turn);
      if (event.kind === 'tool.called') {
        const callId = callIdOf(event);
        const { tool, parameters } = event.payload as { tool: string; parameters: JsonValue };
        const returned = outcome.get(callId)?.payload as { error?: RecordedError } | undefined;
        callIds.push(callId);
        calls.push(
          run.gate.call({ tool, parameters }, { grant: recordedGrant(event.actor, tool, returned?.error) }),
        );
      }
      if (['tool.called', 'policy.decided', 'tool.returned'].includes(event.kind)) {
        await sequencer.write(`${callIdOf(event)}:${event.kind}`, event.seq);
      } else {
        await run.recorder.record(event.kind, event.actor, event.payload);
      }
    }
    await Promise.all(calls);
  } finally {
    await store.close();
  }
  return calls.length;
}

/** Holds each write of the replayed calls until the driver reaches its place in the recording. */
class Sequencer {
  readonly #arrived = new Map<string, { write: () => Promise<void>; done: () => void }>();
  readonly #waiting = new Map<string, () => void>();

  recorder(target: Recorder): Recorder {
    const held = (key: string, write: () => Promise<void>) =>
      new Promise<void>((done) => {
        this.#arrived.set(key, { write, done });
        this.#waiting.get(key)?.();
      });
    return {
      toolCalled: (record: ToolCalledRecord) =>
        held(`${record.callId}:tool.called`, async () => target.toolCalled(record)),
      policyDecided: (record: PolicyDecidedRecord) =>
        held(`${record.callId}:policy.decided`, async () => target.policyDecided(record)),
      toolReturned: (record: ToolReturnedRecord) =>
        held(`${record.callId}:tool.returned`, async () => {
          await target.toolReturned(record);
        }),
    };
  }

  /** Writes the replayed event recorded as `key`, waiting (bounded) for the replay to produce it. */
  async write(key: string, seq: number): Promise<void> {
    if (!this.#arrived.has(key)) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new ToolgateError('REPLAY_DIVERGED', `seq ${seq}: the replay never produced ${key}`)),
          30_000,
        );
        this.#waiting.set(key, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.#waiting.delete(key);
    }
    const entry = this.#arrived.get(key)!;
    this.#arrived.delete(key);
    await entry.write();
    entry.done();
  }
}

interface RecordedError {
  code?: string;
  message?: string;
}

/**
 * The grant a recorded call was made under, as far as the recording shows it: the tool, unless the
 * call was refused as ungranted — then nothing, refused with the recorded words.
 */
function recordedGrant(agent: string, tool: string, error: RecordedError | undefined): Grant {
  const grant = exactGrant(agent, [tool]);
  // refused before policy: not granted, or over the client's rate limit
  if (error?.code !== 'CAPABILITY_VIOLATION' && error?.code !== 'RATE_LIMITED') return grant;
  const refused = exactGrant(agent, []);
  return {
    ...refused,
    refusal: () => new ToolgateError(error.code as 'CAPABILITY_VIOLATION', String(error.message ?? '')),
  };
}

function callIdOf(event: LedgerEvent): string {
  return String((event.payload as { callId?: unknown }).callId);
}
