/**
 * The ledger viewer page: shows one window of the timeline at a time, from the server's `/rows`
 * (filtered and paged there, so the page never holds the whole ledger) or from the ledger embedded
 * in a static export; follows the server's `/events` for the verification state and refreshes the
 * window as records arrive. Every piece of ledger content reaches the DOM as text, never as HTML.
 *
 * @module
 */
import type { RowsWindow, ViewerSnapshot, ViewerState } from '../snapshot.js';
import { renderDetails } from './details.js';
import { element } from './dom.js';
import { type HeaderState, renderHeader } from './header.js';
import type { Filters, Row } from './model.js';
import { embeddedSource, serverSource, type WindowSource } from './sources.js';
import { renderTimeline } from './timeline.js';

/** Rows a window holds. */
const pageSize = 200;

const header: HeaderState = {
  file: '',
  status: { state: 'verifying', count: 0 },
  liveFault: undefined,
  rowsFault: undefined,
  last: undefined,
  count: 0,
  mode: 'connecting',
  tally: {},
};
const filters: Filters = { run: '', agent: '', tool: '', kind: '', outcome: '', search: '' };
const view: { window: RowsWindow | undefined; from: number; runChosen: boolean; selected: Row | undefined } =
  {
    window: undefined,
    from: 0,
    runChosen: false,
    selected: undefined,
  };

const headerSlot = element('div');
const toolbar = element('div', { class: 'toolbar' });
const pager = element('div', { class: 'pager', data: { testid: 'pager' } });
const main = element('main');
const detailsSlot = element('div');
document.body.append(headerSlot, toolbar, pager, main, detailsSlot);

let source: WindowSource;
let fetching = false;
let again = false;

/** Fetches the window the filters and position ask for; one request at a time, the latest wins. */
async function refresh(): Promise<void> {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  try {
    const { run, ...rest } = filters;
    const window = await source({
      filters: view.runChosen ? { ...rest, run } : rest,
      from: view.from,
      limit: pageSize,
    });
    header.rowsFault = undefined;
    if (window.total > 0 && view.from >= window.total) {
      // the filters leave fewer rows than the position: go to the last window
      view.from = Math.floor((window.total - 1) / pageSize) * pageSize;
      again = true;
    }
    view.window = window;
    // the server's choice of run stands only while the person has chosen none: a run chosen while
    // this request was in flight is kept, and the request queued behind it asks for that run
    if (!view.runChosen) filters.run = window.filters.run;
    applyState(window.state);
    const selected = view.selected && window.rows.find((row) => row.key === view.selected?.key);
    if (selected) view.selected = selected;
    render();
  } catch (error) {
    header.rowsFault = `cannot get the records: ${(error as Error).message}`;
    renderTop();
  } finally {
    fetching = false;
    if (again) {
      again = false;
      void refresh();
    }
  }
}

function applyState(state: ViewerState): void {
  header.file = state.file;
  header.status = state.status;
  header.liveFault = state.liveFault;
  header.last = state.last;
  header.count = state.count;
  document.title = `${state.file} · toolgate ledger`;
}

/**
 * A filter's drop-down. Built once and kept: a live update only changes its options, so a person
 * holding it open, or typing in the search box beside it, keeps their place and their focus.
 */
function filterControl(name: keyof Filters): HTMLSelectElement {
  const control = element('select', { data: { testid: `filter-${name}` } });
  control.addEventListener('change', () => {
    filters[name] = control.value;
    if (name === 'run') view.runChosen = true;
    view.from = 0;
    void refresh();
  });
  return control;
}

/** Gives a drop-down these options after "any", changing only the ones that differ. */
function setOptions(
  control: HTMLSelectElement,
  chosen: string,
  any: string,
  values: readonly string[],
  labels: readonly string[] = values,
): void {
  const wanted = [
    { value: '', label: any },
    ...values.map((value, index) => ({ value, label: labels[index] ?? value })),
  ];
  for (const [index, { value, label }] of wanted.entries()) {
    const option = control.options[index] ?? control.appendChild(element('option'));
    if (option.value !== value) option.value = value;
    if (option.textContent !== label) option.textContent = label;
  }
  while (control.options.length > wanted.length) control.options[wanted.length]!.remove();
  const value = values.includes(chosen) ? chosen : '';
  if (control.value !== value) control.value = value;
}

const controls = {
  run: filterControl('run'),
  agent: filterControl('agent'),
  tool: filterControl('tool'),
  kind: filterControl('kind'),
  outcome: filterControl('outcome'),
};

const search = element('input', { data: { testid: 'search' } });
search.type = 'search';
search.placeholder = 'search parameters, outputs';
let typing: ReturnType<typeof setTimeout> | undefined;
search.addEventListener('input', () => {
  clearTimeout(typing);
  typing = setTimeout(() => {
    filters.search = search.value;
    view.from = 0;
    void refresh();
  }, 150);
});

toolbar.append(
  element('label', {}, 'run ', controls.run),
  element('label', {}, 'agent ', controls.agent),
  element('label', {}, 'tool ', controls.tool),
  element('label', {}, 'kind ', controls.kind),
  element('label', {}, 'outcome ', controls.outcome),
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

function renderToolbar(window: RowsWindow | undefined): void {
  // The ledger's runs as LedgerStore.runs() lists them: in the order they started, with their span.
  const summaries = window?.runs ?? [];
  const runs = summaries.map((run) => run.runId);
  const runLabels = summaries.map(
    (run) =>
      `${run.runId} · #${run.firstSeq}–#${run.lastSeq} · ${run.count} records · ${run.firstAt} – ${run.lastAt}`,
  );
  const distinct = window?.distinct ?? { agents: [], tools: [], kinds: [] };
  setOptions(controls.run, filters.run, `all runs (${runs.length})`, runs, runLabels);
  setOptions(controls.agent, filters.agent, 'all agents', distinct.agents);
  setOptions(controls.tool, filters.tool, 'all tools', distinct.tools);
  setOptions(controls.kind, filters.kind, 'all kinds', distinct.kinds);
  setOptions(controls.outcome, filters.outcome, 'any outcome', [
    'ok',
    'approved',
    'denied',
    'refused',
    'failed',
    'pending',
  ]);
}

function go(from: number): void {
  view.from = Math.max(0, from);
  void refresh();
  scrollTo(0, 0);
}

function button(label: string, testid: string, enabled: boolean, onClick: () => void): HTMLElement {
  const control = element('button', { data: { testid } }, label);
  control.disabled = !enabled;
  control.addEventListener('click', onClick);
  return control;
}

function renderPager(window: RowsWindow | undefined): void {
  const total = window?.total ?? 0;
  const from = window?.from ?? 0;
  const shown = window?.rows.length ?? 0;
  const last = Math.max(0, Math.floor((total - 1) / pageSize) * pageSize);
  pager.replaceChildren(
    button('« first', 'page-first', from > 0, () => go(0)),
    button('◀ previous', 'page-previous', from > 0, () => go(from - pageSize)),
    element(
      'span',
      { data: { testid: 'page-range' } },
      total === 0 ? 'no rows' : `rows ${from + 1}–${from + shown} of ${total}`,
    ),
    button('next ▶', 'page-next', from + shown < total, () => go(from + pageSize)),
    button('last »', 'page-last', from < last, () => go(last)),
  );
}

function open(key: string | undefined): void {
  view.selected = key === undefined ? undefined : view.window?.rows.find((row) => row.key === key);
  renderBody();
}

function renderBody(): void {
  const window = view.window;
  const rows = window?.rows ?? [];
  const lanes = (window?.distinct.agents ?? []).filter((lane) => !filters.agent || lane === filters.agent);
  main.replaceChildren(renderTimeline(rows, lanes, view.selected?.key, open));
  const selected = view.selected;
  detailsSlot.replaceChildren(...(selected ? [renderDetails(selected, () => open(undefined))] : []));
}

function renderTop(): void {
  header.tally = view.window?.tally ?? {};
  headerSlot.replaceChildren(renderHeader(header));
}

function render(): void {
  renderTop();
  renderToolbar(view.window);
  renderPager(view.window);
  renderBody();
}

/** Asks the stream again to learn why it was refused: the server words a 503 (too many pages). */
async function lostBecause(): Promise<void> {
  const controller = new AbortController();
  try {
    const response = await fetch('events', { signal: controller.signal });
    if (response.status !== 200) header.lostReason = (await response.text()).trim();
  } catch {
    // the server is gone: "connection lost" says it
  } finally {
    controller.abort();
  }
}

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') open(undefined);
});

const embedded = document.getElementById('ledger-data');
if (embedded) {
  const snapshot = JSON.parse(embedded.textContent ?? '{}') as ViewerSnapshot;
  source = embeddedSource(snapshot);
  header.mode = 'static';
  if (snapshot.checkpoints) header.checkpoints = snapshot.checkpoints;
  render();
  void refresh();
} else {
  source = serverSource();
  render();
  const events = new EventSource('events');
  let seen = -1;
  events.addEventListener('open', () => {
    header.mode = 'live';
    renderTop();
  });
  events.addEventListener('status', (message) => {
    const state = JSON.parse((message as MessageEvent<string>).data) as ViewerState;
    applyState(state);
    renderTop();
    // new records (or a new verdict on them): fetch the window again
    const mark =
      state.count * 4 + ['verifying', 'verified', 'corrupt', 'unreadable'].indexOf(state.status.state);
    if (mark !== seen) {
      seen = mark;
      void refresh();
    }
  });
  events.addEventListener('error', () => {
    header.mode = events.readyState === EventSource.CLOSED ? 'lost' : 'connecting';
    renderTop();
    if (header.mode === 'lost') void lostBecause().then(renderTop);
  });
}
