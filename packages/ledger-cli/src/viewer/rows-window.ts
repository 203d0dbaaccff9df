import type { LedgerEvent } from '@toolgate/ledger';
import type { LedgerIndex } from './ledger-index.js';
import type { Filters, Row } from './page/model.js';
import type { RowsWindow, WindowQuery } from './snapshot.js';

/** The most rows one window holds. */
export const maxWindow = 500;

/** Reads `?run=&agent=&tool=&kind=&outcome=&search=&from=&limit=`; a missing `run` means the latest run. */
export function windowQuery(parameters: URLSearchParams): WindowQuery {
  const text = (name: string) => parameters.get(name) ?? '';
  const whole = (name: string, fallback: number) => {
    const value = Number(parameters.get(name) ?? fallback);
    return Number.isSafeInteger(value) && value >= 0 ? value : fallback;
  };
  return {
    filters: {
      ...(parameters.has('run') ? { run: text('run') } : {}),
      agent: text('agent'),
      tool: text('tool'),
      kind: text('kind'),
      outcome: text('outcome'),
      search: text('search'),
    },
    from: whole('from', 0),
    limit: Math.min(Math.max(whole('limit', 200), 1), maxWindow),
  };
}

/** The window of rows `query` asks for, its records read back (and verified) from the file. */
export async function rowsWindow(index: LedgerIndex, query: WindowQuery): Promise<RowsWindow> {
  const state = index.state();
  const table = index.rows;
  const runs = table.runList();
  const filters: Filters = { ...query.filters, run: query.filters.run ?? runs.at(-1)?.runId ?? '' };
  const term = filters.search.trim().toLowerCase();
  const searched = term === '' ? undefined : await index.searched(term);
  const { total, rows } = table.select(filters, query.from, query.limit, searched);
  const shapes = rows.map((row) => table.records(row));
  const records = await index.records(shapes.flatMap((shape) => shape.seqs));
  return {
    state,
    runs,
    filters,
    distinct: table.distinct(filters.run),
    tally: table.tally(),
    total,
    from: query.from,
    rows: shapes.flatMap((shape): Row[] => {
      const events = shape.seqs.map((seq) => records.get(seq));
      const first = events
        .filter((event): event is LedgerEvent => event !== undefined)
        .sort((a, b) => a.seq - b.seq)[0];
      if (!first) return [];
      if (shape.type === 'event') return [{ type: 'event', key: `event:${first.seq}`, event: first }];
      const payload = first.payload as { callId: string; tool?: unknown };
      const [called, decided, returned] = events;
      return [
        {
          type: 'call',
          key: `call:${first.seq}`,
          runId: first.runId,
          callId: payload.callId,
          agent: first.actor,
          tool: String(payload.tool ?? '?'),
          seq: first.seq,
          turn: first.turn,
          ...(called ? { called } : {}),
          ...(decided ? { decided } : {}),
          ...(returned ? { returned } : {}),
        },
      ];
    }),
  };
}
