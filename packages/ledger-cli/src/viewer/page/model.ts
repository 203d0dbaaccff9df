import type { LedgerEvent } from '@toolgate/ledger';

/** How a call ended, as the timeline marks it. */
export type Outcome = 'ok' | 'approved' | 'denied' | 'refused' | 'failed' | 'pending';

/** One tool call: its three records, correlated by run and call id. */
export interface CallView {
  readonly type: 'call';
  readonly key: string;
  readonly runId: string;
  readonly callId: string;
  readonly agent: string;
  readonly tool: string;
  /** The seq of its first record: where it stands on the timeline. */
  readonly seq: number;
  readonly turn: number;
  called?: LedgerEvent;
  decided?: LedgerEvent;
  returned?: LedgerEvent;
}

/** Any other record (`run.started`, `world.observed` …), shown in its actor's lane. */
export interface EventView {
  readonly type: 'event';
  readonly key: string;
  readonly event: LedgerEvent;
}

/** One row of the timeline. */
export type Row = CallView | EventView;

type Payload = Record<string, unknown>;

const callKinds = new Set(['tool.called', 'policy.decided', 'tool.returned']);

function payloadOf(event: LedgerEvent | undefined): Payload {
  const payload = event?.payload;
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
    ? (payload as Payload)
    : {};
}

/** Builds and keeps the rows of a ledger as records arrive, in seq order. */
export class Timeline {
  readonly rows: Row[] = [];
  readonly #calls = new Map<string, CallView>();

  /** Adds records (in seq order). */
  add(events: readonly LedgerEvent[]): void {
    for (const event of events) this.#add(event);
  }

  #add(event: LedgerEvent): void {
    const payload = payloadOf(event);
    if (!callKinds.has(event.kind) || typeof payload.callId !== 'string') {
      this.rows.push({ type: 'event', key: `event:${event.seq}`, event });
      return;
    }
    const key = `${event.runId}\u0000${payload.callId}`;
    let call = this.#calls.get(key);
    if (!call) {
      call = {
        type: 'call',
        key: `call:${event.seq}`,
        runId: event.runId,
        callId: payload.callId,
        agent: event.actor,
        tool: String(payload.tool ?? '?'),
        seq: event.seq,
        turn: event.turn,
      };
      this.#calls.set(key, call);
      this.rows.push(call);
    }
    if (event.kind === 'tool.called') call.called = event;
    else if (event.kind === 'policy.decided') call.decided = event;
    else call.returned = event;
  }
}

/** The actor of a row: its agent for a call. */
export function actorOf(row: Row): string {
  return row.type === 'call' ? row.agent : row.event.actor;
}

/** The run of a row. */
export function runOf(row: Row): string {
  return row.type === 'call' ? row.runId : row.event.runId;
}

/** The policy decision of a call, when policy was consulted. */
export function decisionOf(
  call: CallView,
): { verdict: string; decision: string; reason: string } | undefined {
  if (!call.decided) return undefined;
  const payload = payloadOf(call.decided);
  return {
    // policy's word: a field of the verdict since decisions are data, the verdict itself before
    verdict: String(
      typeof payload.verdict === 'object' && payload.verdict !== null
        ? (payload.verdict as { decision?: unknown }).decision
        : payload.verdict,
    ),
    decision: String(payload.decision),
    reason: String(payload.reason ?? ''),
  };
}

/** The error of a call that failed, or undefined. */
export function errorOf(call: CallView): { code: string; message: string } | undefined {
  const payload = payloadOf(call.returned);
  if (payload.isError !== true) return undefined;
  const error = (payload.error ?? {}) as Payload;
  return { code: String(error.code ?? 'ERROR'), message: String(error.message ?? '') };
}

/**
 * How a call ended: `refused` when the agent was not granted the tool, `denied` when policy (or an
 * approver) said no, `failed` for any other error, `approved` when an approver allowed it,
 * `pending` while no result is recorded yet.
 */
export function outcomeOf(call: CallView): Outcome {
  const decision = decisionOf(call);
  if (decision?.decision === 'deny') return 'denied';
  if (!call.returned) return 'pending';
  const error = errorOf(call);
  if (error?.code === 'CAPABILITY_VIOLATION') return 'refused';
  if (error?.code === 'PERMISSION_DENIED') return 'denied';
  if (error) return 'failed';
  return decision?.verdict === 'ask' ? 'approved' : 'ok';
}

/** The kind a row is filtered by: `tool call`, or the record's own kind. */
export function kindOf(row: Row): string {
  return row.type === 'call' ? 'tool call' : row.event.kind;
}

/** The text the search box looks in: parameters, reason, output or error, or an event's payload. */
export function searchTextOf(row: Row): string {
  if (row.type === 'event') return JSON.stringify(row.event.payload).toLowerCase();
  const parts = [row.tool, row.callId, row.called, row.decided, row.returned].map((part) =>
    typeof part === 'string' ? part : JSON.stringify(payloadOf(part)),
  );
  return parts.join('\n').toLowerCase();
}

/** What the filters hold; an empty string means any. */
export interface Filters {
  run: string;
  agent: string;
  tool: string;
  kind: string;
  outcome: string;
  search: string;
}

/** True when a row passes every filter. */
export function passes(row: Row, filters: Filters): boolean {
  if (filters.run && runOf(row) !== filters.run) return false;
  if (filters.agent && actorOf(row) !== filters.agent) return false;
  if (filters.tool && (row.type !== 'call' || row.tool !== filters.tool)) return false;
  if (filters.kind && kindOf(row) !== filters.kind) return false;
  if (filters.outcome && (row.type !== 'call' || outcomeOf(row) !== filters.outcome)) return false;
  const search = filters.search.trim().toLowerCase();
  return !search || searchTextOf(row).includes(search);
}

/** The distinct values of a field over rows, in order of first appearance. */
export function distinct(rows: readonly Row[], pick: (row: Row) => string | undefined): string[] {
  const seen = new Set<string>();
  for (const row of rows) {
    const value = pick(row);
    if (value !== undefined) seen.add(value);
  }
  return [...seen];
}
