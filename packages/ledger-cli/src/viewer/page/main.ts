/**
 * The ledger viewer page: reads the ledger embedded in the page (a static export) or follows the
 * server's `/events` stream, and renders the header, the filters, the timeline and an opened call.
 * Every piece of ledger content reaches the DOM as text, never as HTML.
 *
 * @module
 */
import type { LedgerEvent } from '@toolgate/ledger';
import { RunIndex } from '@toolgate/ledger';
import type { ViewerSnapshot, ViewerStatus } from '../snapshot.js';
import { renderDetails } from './details.js';
import { element } from './dom.js';
import { type HeaderState, renderHeader } from './header.js';
import { actorOf, distinct, type Filters, kindOf, passes, type Row, runOf, Timeline } from './model.js';
import { renderTimeline } from './timeline.js';

const state: HeaderState & {
  timeline: Timeline;
  runs: RunIndex;
  selected: string | undefined;
  runChosen: boolean;
} = {
  file: '',
  status: { state: 'verified', count: 0, last: undefined },
  liveFault: undefined,
  last: undefined,
  count: 0,
  mode: 'connecting',
  rows: [],
  timeline: new Timeline(),
  runs: new RunIndex(),
  selected: undefined,
  runChosen: false,
};
const filters: Filters = { run: '', agent: '', tool: '', kind: '', outcome: '', search: '' };

function reset(file: string, status: ViewerStatus): void {
  state.file = file;
  state.status = status;
  state.liveFault = undefined;
  state.last = undefined;
  state.count = 0;
  state.timeline = new Timeline();
  state.runs = new RunIndex();
  state.rows = state.timeline.rows;
  document.title = `${file} · toolgate ledger`;
}

function add(events: readonly LedgerEvent[]): void {
  state.timeline.add(events);
  for (const event of events) state.runs.add(event);
  const last = events.at(-1);
  if (last) state.last = { seq: last.seq, hash: last.hash };
  state.count += events.length;
}

const headerSlot = element('div');
const toolbar = element('div', { class: 'toolbar' });
const main = element('main');
const detailsSlot = element('div');
document.body.append(headerSlot, toolbar, main, detailsSlot);

function select(
  name: keyof Filters,
  label: string,
  any: string,
  values: readonly string[],
  labels: readonly string[] = values,
): HTMLElement {
  const control = element('select', { data: { testid: `filter-${name}` } });
  control.append(element('option', {}, any));
  (control.firstChild as HTMLOptionElement).value = '';
  for (const [index, value] of values.entries()) {
    const option = element('option', {}, labels[index] ?? value);
    option.value = value;
    control.append(option);
  }
  control.value = values.includes(filters[name]) ? filters[name] : '';
  control.addEventListener('change', () => {
    filters[name] = control.value;
    if (name === 'run') state.runChosen = true;
    render();
  });
  return element('label', {}, `${label} `, control);
}

const search = element('input', { data: { testid: 'search' } });
search.type = 'search';
search.placeholder = 'search parameters, outputs';
search.addEventListener('input', () => {
  filters.search = search.value;
  renderBody();
});

function renderToolbar(rows: readonly Row[]): void {
  // The ledger's runs as LedgerStore.runs() lists them: in the order they started, with their span.
  const summaries = state.runs.list();
  const runs = summaries.map((run) => run.runId);
  const runLabels = summaries.map(
    (run) =>
      `${run.runId} · #${run.firstSeq}–#${run.lastSeq} · ${run.count} records · ${run.firstAt} – ${run.lastAt}`,
  );
  if (!state.runChosen) filters.run = runs.at(-1) ?? '';
  const inRun = rows.filter((row) => !filters.run || runOf(row) === filters.run);
  toolbar.replaceChildren(
    select('run', 'run', `all runs (${runs.length})`, runs, runLabels),
    select('agent', 'agent', 'all agents', distinct(inRun, actorOf)),
    select(
      'tool',
      'tool',
      'all tools',
      distinct(inRun, (row) => (row.type === 'call' ? row.tool : undefined)),
    ),
    select('kind', 'kind', 'all kinds', distinct(inRun, kindOf)),
    select('outcome', 'outcome', 'any outcome', ['ok', 'approved', 'denied', 'refused', 'failed', 'pending']),
    search,
    element(
      'span',
      { class: 'legend' },
      element('span', { class: 'badge badge-refused' }, 'refused'),
      element('span', { class: 'badge badge-denied' }, 'denied'),
      element('span', { class: 'badge badge-failed' }, 'failed'),
      element('span', { class: 'badge badge-approved' }, 'approved'),
      element('span', { class: 'hint' }, 'click a row to see its records'),
    ),
  );
}

function open(key: string | undefined): void {
  state.selected = key;
  renderBody();
}

function renderBody(): void {
  const all = state.rows;
  const inRun = all.filter((row) => !filters.run || runOf(row) === filters.run);
  const lanes = distinct(inRun, actorOf).filter((lane) => !filters.agent || lane === filters.agent);
  const shown = inRun.filter((row) => passes(row, filters));
  main.replaceChildren(renderTimeline(shown, lanes, state.selected, open));
  const selected = all.find((row) => row.key === state.selected);
  detailsSlot.replaceChildren(...(selected ? [renderDetails(selected, () => open(undefined))] : []));
}

function render(): void {
  headerSlot.replaceChildren(renderHeader(state));
  renderToolbar(state.rows);
  renderBody();
}

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') open(undefined);
});

const embedded = document.getElementById('ledger-data');
if (embedded) {
  const snapshot = JSON.parse(embedded.textContent ?? '{}') as ViewerSnapshot;
  reset(snapshot.file, snapshot.status);
  add(snapshot.events);
  state.mode = 'static';
  render();
} else {
  render();
  const source = new EventSource('events');
  source.addEventListener('open', () => {
    state.mode = 'live';
    headerSlot.replaceChildren(renderHeader(state));
  });
  source.addEventListener('status', (message) => {
    const { file, status } = JSON.parse((message as MessageEvent<string>).data) as {
      file: string;
      status: ViewerStatus;
    };
    reset(file, status);
    render();
  });
  source.addEventListener('records', (message) => {
    add(JSON.parse((message as MessageEvent<string>).data) as LedgerEvent[]);
    render();
  });
  source.addEventListener('fault', (message) => {
    // A failure the status already names is not news; one met while following is.
    if (state.status.state === 'verified') {
      state.liveFault = (JSON.parse((message as MessageEvent<string>).data) as { message: string }).message;
    }
    render();
  });
  source.addEventListener('error', () => {
    state.mode = source.readyState === EventSource.CLOSED ? 'lost' : 'connecting';
    headerSlot.replaceChildren(renderHeader(state));
  });
}
