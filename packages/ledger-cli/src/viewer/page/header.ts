import type { ViewerCheckpoint, ViewerStatus } from '../snapshot.js';
import { element } from './dom.js';

/** What the header shows. */
export interface HeaderState {
  file: string;
  status: ViewerStatus;
  /** A failure the live follow met after the page loaded. */
  liveFault: string | undefined;
  /** A window of rows the server could not give (the file changed, the server failed). */
  rowsFault: string | undefined;
  /** The last verified record. */
  last: { seq: number; hash: string } | undefined;
  count: number;
  mode: 'static' | 'connecting' | 'live' | 'lost';
  /** Why the server ended or refused the live stream, when it said (a 503 past its cap). */
  lostReason?: string | undefined;
  /** How many calls the ledger holds (`calls`), and how many ended each way. */
  tally: Readonly<Record<string, number>>;
  /** Signed checkpoints checked against the ledger: who signed each, covering which records, and whether it holds. */
  checkpoints?: readonly ViewerCheckpoint[];
}

/**
 * The verification line, exactly as `toolgate-ledger verify` words a failure. Green only once
 * verification has read the whole ledger and found it sound; never while it runs or before any
 * data arrived, and never for a ledger that cannot be read.
 */
function verification(state: HeaderState): { ok: boolean | undefined; text: string; note: string } {
  const { status } = state;
  if (state.mode === 'connecting' && state.count === 0 && status.state === 'verifying') {
    return { ok: undefined, text: '○ Not verified yet: waiting for the server', note: '' };
  }
  if (status.state === 'verifying') {
    return {
      ok: undefined,
      text: `○ Verifying: ${status.count} records checked so far`,
      note: 'Nothing is vouched for until verification has read the whole ledger.',
    };
  }
  if (status.state === 'unreadable') {
    return {
      ok: false,
      text: `✘ Cannot read the ledger: ${status.message}`,
      note: 'Nothing in it can be shown.',
    };
  }
  if (status.state === 'corrupt') {
    return {
      ok: false,
      text: `✘ Verification failed: bad record at seq ${status.seq}: ${status.reason}`,
      note: `Showing the ${state.count} records before it; nothing from seq ${status.seq} on can be trusted.`,
    };
  }
  if (state.rowsFault) {
    return { ok: false, text: `✘ ${state.rowsFault}`, note: 'The records shown may be out of date.' };
  }
  if (state.liveFault) {
    return {
      ok: false,
      text: `✘ Verification failed while following: ${state.liveFault}`,
      note: `Showing the ${state.count} records before it.`,
    };
  }
  if (!state.last) return { ok: true, text: '✔ Verified: the ledger is empty', note: '' };
  return {
    ok: true,
    text: `✔ Verified: hash chain intact up to seq ${state.last.seq} (${state.count} records)`,
    note: 'Every record shown chains to the one before it and hashes to its own hash.',
  };
}

const modes = {
  static: 'static export: the ledger as it was when exported',
  connecting: '○ connecting to the server…',
  live: '● live: new records appear as they are written',
  lost: '✘ connection to the server lost: reload to reconnect',
};

/** The mode line: green "live" only beside a ledger that verified. */
function modeOf(state: HeaderState): { text: string; tone: string } {
  if (state.mode === 'lost' && state.lostReason) return { text: `✘ ${state.lostReason}`, tone: 'lost' };
  if (state.mode !== 'live') return { text: modes[state.mode], tone: state.mode };
  if (state.status.state === 'unreadable') {
    return { text: '○ waiting for a readable ledger: the server keeps looking', tone: 'connecting' };
  }
  if (state.status.state === 'corrupt' || state.liveFault || state.rowsFault) {
    return { text: '■ stopped at the bad record: nothing after it is shown', tone: 'lost' };
  }
  if (state.status.state === 'verifying') return { text: '○ verifying the ledger…', tone: 'connecting' };
  return { text: modes.live, tone: 'live' };
}

/** The page header: file, verification status, head hash, mode and counts. */
export function renderHeader(state: HeaderState): HTMLElement {
  const check = verification(state);
  const mode = modeOf(state);
  const tally = ['refused', 'denied', 'failed', 'approved']
    .map((outcome) => [outcome, state.tally[outcome] ?? 0] as const)
    .filter(([, count]) => count > 0)
    .map(([outcome, count]) => `${count} ${outcome}`);
  return element(
    'header',
    {},
    element('h1', {}, 'toolgate ledger ', element('span', { class: 'file' }, state.file)),
    element(
      'div',
      {
        class: `status ${check.ok === undefined ? 'status-pending' : check.ok ? 'status-ok' : 'status-bad'}`,
        data: { testid: 'status' },
      },
      element('strong', {}, check.text),
      check.note ? element('span', { class: 'note' }, check.note) : undefined,
    ),
    ...(state.checkpoints ?? []).map((checkpoint) =>
      element(
        'div',
        { class: `status ${checkpoint.holds ? 'status-ok' : 'status-bad'}`, data: { testid: 'checkpoint' } },
        element('strong', {}, `${checkpoint.holds ? '✔' : '✘'} ${checkpoint.text}`),
      ),
    ),
    element(
      'div',
      { class: 'facts' },
      element(
        'span',
        { data: { testid: 'head' } },
        'head: ',
        state.last ? `seq ${state.last.seq} · ` : 'none',
        state.last ? element('code', { class: 'hash' }, state.last.hash) : undefined,
      ),
      element('span', { class: `mode mode-${mode.tone}`, data: { testid: 'mode' } }, mode.text),
      element(
        'span',
        {},
        `${state.tally.calls ?? 0} tool calls${tally.length > 0 ? `: ${tally.join(', ')}` : ''} · ${state.count} records`,
      ),
    ),
  );
}
