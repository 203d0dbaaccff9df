import { type LedgerEvent, RunIndex, type RunSummary } from '@toolgate/ledger';
import { type CallView, type Filters, type Outcome, outcomeOf } from './page/model.js';

const outcomes: readonly (Outcome | 'event')[] = [
  'event',
  'ok',
  'approved',
  'denied',
  'refused',
  'failed',
  'pending',
];
const callKinds = new Set(['tool.called', 'policy.decided', 'tool.returned']);
const callKind = 'tool call';

/** Strings stored once, known by a small number. */
class Strings {
  readonly #ids = new Map<string, number>();
  readonly values: string[] = [];
  id(value: string): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.#ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }
  find(value: string): number | undefined {
    return this.#ids.get(value);
  }
}

/** A growable column of 32-bit integers. */
class Column {
  #data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.#data.length) {
      const grown = new Int32Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.length++] = value;
  }
  get(index: number): number {
    return this.#data[index]!;
  }
  set(index: number, value: number): void {
    this.#data[index] = value;
  }
}

/** What the toolbar offers within a run (or the whole ledger): in order of first appearance. */
interface Distinct {
  actors: Set<number>;
  tools: Set<number>;
  kinds: Set<number>;
}

/** The records a row is made of, by seq (-1 where a call has none yet). */
export interface RowRecords {
  readonly type: 'call' | 'event';
  readonly seqs: readonly number[];
}

/**
 * The viewer's rows (a call's three records as one row, any other record as its own) as columns of
 * numbers, not objects: a few dozen bytes a row whatever the records hold, so a server can page and
 * filter a ledger of millions of records. Only calls still waiting for their result keep a record.
 */
export class RowTable {
  readonly #strings = new Strings();
  readonly #run = new Column();
  readonly #actor = new Column();
  readonly #tool = new Column();
  readonly #kind = new Column();
  readonly #outcome = new Column();
  readonly #called = new Column();
  readonly #decided = new Column();
  readonly #returned = new Column();
  /** seq → its row. */
  readonly #rowOf = new Column();
  readonly #open = new Map<string, { row: number; decided?: LedgerEvent }>();
  readonly #all: Distinct = { actors: new Set(), tools: new Set(), kinds: new Set() };
  readonly #byRun = new Map<number, Distinct>();
  readonly #tally = new Map<Outcome | 'event', number>();
  readonly runs = new RunIndex();

  /** How many rows there are. */
  get length(): number {
    return this.#run.length;
  }

  /** Adds the next record (in seq order). */
  add(event: LedgerEvent): void {
    this.runs.add(event);
    const payload = (event.payload ?? {}) as { callId?: unknown; tool?: unknown };
    if (!callKinds.has(event.kind) || typeof payload.callId !== 'string') {
      this.#rowOf.push(this.#push(event, -1, this.#strings.id(event.kind), 'event', [event.seq, -1, -1]));
      return;
    }
    const key = `${event.runId}\u0000${payload.callId}`;
    let open = this.#open.get(key);
    if (!open) {
      const tool = this.#strings.id(String(payload.tool ?? '?'));
      open = { row: this.#push(event, tool, this.#strings.id(callKind), 'pending', [-1, -1, -1]) };
      this.#open.set(key, open);
    }
    const row = open.row;
    this.#rowOf.push(row);
    if (event.kind === 'tool.called') this.#called.set(row, event.seq);
    else if (event.kind === 'policy.decided') {
      this.#decided.set(row, event.seq);
      open.decided = event;
    } else this.#returned.set(row, event.seq);
    const call = { decided: open.decided, returned: event.kind === 'tool.returned' ? event : undefined };
    this.#setOutcome(row, outcomeOf(call as CallView));
    // a call is whole once it returned: nothing of it is kept but its numbers
    if (event.kind === 'tool.returned') this.#open.delete(key);
  }

  #push(event: LedgerEvent, tool: number, kind: number, outcome: Outcome | 'event', seqs: number[]): number {
    const row = this.#run.length;
    const run = this.#strings.id(event.runId);
    const actor = this.#strings.id(event.actor);
    this.#run.push(run);
    this.#actor.push(actor);
    this.#tool.push(tool);
    this.#kind.push(kind);
    this.#outcome.push(outcomes.indexOf(outcome));
    this.#called.push(seqs[0]!);
    this.#decided.push(seqs[1]!);
    this.#returned.push(seqs[2]!);
    this.#tally.set(outcome, (this.#tally.get(outcome) ?? 0) + 1);
    let distinct = this.#byRun.get(run);
    if (!distinct) {
      distinct = { actors: new Set(), tools: new Set(), kinds: new Set() };
      this.#byRun.set(run, distinct);
    }
    for (const set of [distinct, this.#all]) {
      set.actors.add(actor);
      if (tool >= 0) set.tools.add(tool);
      set.kinds.add(kind);
    }
    return row;
  }

  #setOutcome(row: number, outcome: Outcome): void {
    const before = outcomes[this.#outcome.get(row)]!;
    if (before === outcome) return;
    this.#tally.set(before, (this.#tally.get(before) ?? 1) - 1);
    this.#tally.set(outcome, (this.#tally.get(outcome) ?? 0) + 1);
    this.#outcome.set(row, outcomes.indexOf(outcome));
  }

  /** The row a record belongs to. */
  rowOf(seq: number): number {
    return this.#rowOf.get(seq);
  }

  /** The seqs of a row's records: a call's tool.called, policy.decided and tool.returned, or the one record. */
  records(row: number): RowRecords {
    const kind = this.#strings.values[this.#kind.get(row)];
    const seqs = [this.#called.get(row), this.#decided.get(row), this.#returned.get(row)];
    return kind === callKind && this.#tool.get(row) >= 0
      ? { type: 'call', seqs }
      : { type: 'event', seqs: [seqs[0]!] };
  }

  /**
   * The rows that pass the filters (all but the search, given as `searched`: the rows it matched),
   * `from` on, at most `limit`; and how many pass in all.
   */
  select(
    filters: Filters,
    from: number,
    limit: number,
    searched?: (row: number) => boolean,
  ): { total: number; rows: number[] } {
    const wanted = (value: string, strings = this.#strings) =>
      value === '' ? -1 : (strings.find(value) ?? -2);
    const run = wanted(filters.run);
    const actor = wanted(filters.agent);
    const tool = wanted(filters.tool);
    const kind = wanted(filters.kind);
    const outcome = filters.outcome === '' ? -1 : outcomes.indexOf(filters.outcome as Outcome);
    const rows: number[] = [];
    let total = 0;
    if ([run, actor, tool, kind].includes(-2) || (filters.outcome !== '' && outcome <= 0))
      return { total, rows };
    for (let row = 0; row < this.length; row++) {
      if (run >= 0 && this.#run.get(row) !== run) continue;
      if (actor >= 0 && this.#actor.get(row) !== actor) continue;
      if (tool >= 0 && this.#tool.get(row) !== tool) continue;
      if (kind >= 0 && this.#kind.get(row) !== kind) continue;
      if (outcome >= 0 && this.#outcome.get(row) !== outcome) continue;
      if (searched && !searched(row)) continue;
      if (total >= from && rows.length < limit) rows.push(row);
      total++;
    }
    return { total, rows };
  }

  /** The actors (lanes), tools and kinds of a run (or of every run, for ''), in order of first appearance. */
  distinct(runId: string): { agents: string[]; tools: string[]; kinds: string[] } {
    const run = runId === '' ? undefined : this.#strings.find(runId);
    const set = run === undefined ? (runId === '' ? this.#all : undefined) : this.#byRun.get(run);
    const names = (ids: Set<number> | undefined) => [...(ids ?? [])].map((id) => this.#strings.values[id]!);
    return { agents: names(set?.actors), tools: names(set?.tools), kinds: names(set?.kinds) };
  }

  /** How many calls there are, and how many ended each way. */
  tally(): { calls: number } & Partial<Record<Outcome, number>> {
    let calls = 0;
    const counts: Partial<Record<Outcome, number>> = {};
    for (const [outcome, count] of this.#tally) {
      if (outcome === 'event' || count === 0) continue;
      calls += count;
      counts[outcome] = count;
    }
    return { calls, ...counts };
  }

  /** The ledger's runs in the order they started. */
  runList(): RunSummary[] {
    return this.runs.list();
  }
}
