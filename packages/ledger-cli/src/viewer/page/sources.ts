import { RunIndex } from '@toolgate/ledger';
import type { RowsWindow, ViewerSnapshot, WindowQuery } from '../snapshot.js';
import { actorOf, distinct, kindOf, outcomeOf, passes, runOf, Timeline } from './model.js';

/** Where the page gets a window of rows: the server (`/rows`), or the ledger embedded in a static export. */
export type WindowSource = (query: WindowQuery) => Promise<RowsWindow>;

/** Windows of the server's `/rows`: only the rows shown are ever held in the page. */
export function serverSource(): WindowSource {
  return async (query) => {
    const parameters = new URLSearchParams({
      agent: query.filters.agent,
      tool: query.filters.tool,
      kind: query.filters.kind,
      outcome: query.filters.outcome,
      search: query.filters.search,
      from: String(query.from),
      limit: String(query.limit),
    });
    if (query.filters.run !== undefined) parameters.set('run', query.filters.run);
    const response = await fetch(`rows?${parameters}`);
    const body = (await response.json()) as RowsWindow | { error: string };
    if ('error' in body) throw new Error(body.error);
    return body;
  };
}

/** Windows of a static export's embedded ledger (held whole: an export is of a ledger that fits a page). */
export function embeddedSource(snapshot: ViewerSnapshot): WindowSource {
  const timeline = new Timeline();
  timeline.add(snapshot.events);
  const runs = new RunIndex();
  for (const event of snapshot.events) runs.add(event);
  const last = snapshot.events.at(-1);
  const tally: Record<string, number> = { calls: 0 };
  for (const row of timeline.rows) {
    if (row.type !== 'call') continue;
    tally.calls = (tally.calls ?? 0) + 1;
    const outcome = outcomeOf(row);
    tally[outcome] = (tally[outcome] ?? 0) + 1;
  }
  const state = {
    file: snapshot.file,
    status: snapshot.status,
    liveFault: undefined,
    count: snapshot.events.length,
    last: last && { seq: last.seq, hash: last.hash },
  };
  return async (query) => {
    const list = runs.list();
    const filters = { ...query.filters, run: query.filters.run ?? list.at(-1)?.runId ?? '' };
    const inRun = timeline.rows.filter((row) => !filters.run || runOf(row) === filters.run);
    const shown = inRun.filter((row) => passes(row, filters));
    return {
      state,
      runs: list,
      filters,
      distinct: {
        agents: distinct(inRun, actorOf),
        tools: distinct(inRun, (row) => (row.type === 'call' ? row.tool : undefined)),
        kinds: distinct(inRun, kindOf),
      },
      tally,
      total: shown.length,
      from: query.from,
      rows: shown.slice(query.from, query.from + query.limit),
    };
  };
}
