import { clip, element } from './dom.js';
import { actorOf, type CallView, decisionOf, errorOf, type Outcome, outcomeOf, type Row } from './model.js';

const outcomeLabels: Record<Outcome, string> = {
  ok: 'allowed',
  approved: 'approved (asked)',
  denied: 'denied by policy',
  refused: 'refused: not granted',
  failed: 'failed',
  pending: 'running…',
};

/** The badge of an outcome, with a title saying what it means. */
export function outcomeBadge(outcome: Outcome): HTMLElement {
  return element('span', { class: `badge badge-${outcome}` }, outcomeLabels[outcome]);
}

function json(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value);
}

function callCell(call: CallView): HTMLElement {
  const outcome = outcomeOf(call);
  const decision = decisionOf(call);
  const error = errorOf(call);
  const parameters = (call.called?.payload as { parameters?: unknown } | undefined)?.parameters;
  const output = (call.returned?.payload as { output?: unknown } | undefined)?.output;
  const policy = decision
    ? `policy: ${decision.verdict === 'ask' ? `ask → ${decision.decision}` : decision.decision}: ${decision.reason}`
    : outcome === 'refused'
      ? 'policy: not consulted (the grant check refused it first)'
      : 'policy: not consulted';
  const result = error
    ? element('div', { class: 'result error' }, `✘ ${error.code}: ${clip(error.message)}`)
    : call.returned
      ? element('div', { class: 'result' }, `→ ${clip(json(output))}`)
      : element('div', { class: 'result pending' }, 'no result yet');
  return element(
    'div',
    { class: 'cell call' },
    element(
      'div',
      { class: 'line' },
      element('strong', { class: 'tool' }, call.tool),
      ' ',
      outcomeBadge(outcome),
      // An approved call that then failed is marked as both.
      decision?.verdict === 'ask' && outcome === 'failed' ? outcomeBadge('approved') : undefined,
    ),
    element('div', { class: 'parameters' }, clip(json(parameters), 100)),
    element('div', { class: 'policy' }, policy),
    result,
  );
}

function eventCell(row: Extract<Row, { type: 'event' }>): HTMLElement {
  const { event } = row;
  const failed = /\.failed$/.test(event.kind);
  return element(
    'div',
    { class: `cell event${failed ? ' event-failed' : ''}` },
    element('span', { class: 'kind' }, event.kind),
    ' ',
    element('span', { class: 'payload' }, clip(json(event.payload), 300)),
  );
}

/**
 * The timeline: one lane (column) per actor, one row per call or record in seq order, each call
 * marked by how it ended.
 */
export function renderTimeline(
  rows: readonly Row[],
  lanes: readonly string[],
  selected: string | undefined,
  open: (key: string) => void,
): HTMLElement {
  // Lanes that hold calls get twice the room of lanes that only hold other records.
  const calling = new Set(rows.filter((row) => row.type === 'call').map(actorOf));
  const columns = `4.5rem ${lanes
    .map((lane) => (calling.has(lane) ? 'minmax(15rem, 2fr)' : 'minmax(8rem, 1fr)'))
    .join(' ')}`;
  const head = element(
    'div',
    { class: 'row lanes' },
    element('div', { class: 'seq' }, 'seq · turn'),
    ...lanes.map((lane) => element('div', { class: 'lane-name', data: { lane } }, lane)),
  );
  head.style.gridTemplateColumns = columns;
  const body = rows.map((row) => {
    const seq = row.type === 'call' ? row.seq : row.event.seq;
    const turn = row.type === 'call' ? row.turn : row.event.turn;
    const cell = row.type === 'call' ? callCell(row) : eventCell(row);
    const column = lanes.indexOf(actorOf(row)) + 2;
    // A call stays in its lane; any other record may run on to the right, on one line.
    cell.style.gridColumn = row.type === 'call' ? String(column) : `${column} / -1`;
    const outcome = row.type === 'call' ? outcomeOf(row) : 'event';
    const line = element(
      'div',
      {
        class: `row outcome-${outcome}${row.key === selected ? ' selected' : ''}`,
        data: { key: row.key, actor: actorOf(row), outcome },
        title: 'open to see its records',
      },
      element('div', { class: 'seq' }, `#${seq} · t${turn}`),
      cell,
    );
    line.style.gridTemplateColumns = columns;
    line.tabIndex = 0;
    line.addEventListener('click', () => open(row.key));
    line.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') open(row.key);
    });
    return line;
  });
  const empty =
    rows.length === 0 ? element('p', { class: 'empty' }, 'No records match the filters.') : undefined;
  return element('section', { class: 'timeline', data: { testid: 'timeline' } }, head, ...body, empty);
}
