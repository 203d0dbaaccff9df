import type { ViewerStatus } from '../snapshot.js';
import { element } from './dom.js';
import { type CallView, outcomeOf, type Row } from './model.js';

/** What the header shows. */
export interface HeaderState {
  file: string;
  status: ViewerStatus;
  /** A failure the live follow met after the page loaded. */
  liveFault: string | undefined;
  /** The last record received: verified by the server's follow. */
  last: { seq: number; hash: string } | undefined;
  count: number;
  mode: 'static' | 'connecting' | 'live' | 'lost';
  rows: readonly Row[];
}

/** The verification line, exactly as `toolgate-ledger verify` words a failure. */
function verification(state: HeaderState): { ok: boolean; text: string; note: string } {
  const { status } = state;
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

/** The page header: file, verification status, head hash, mode and counts. */
export function renderHeader(state: HeaderState): HTMLElement {
  const check = verification(state);
  const calls = state.rows.filter((row): row is CallView => row.type === 'call');
  const counted = (outcome: string) => calls.filter((call) => outcomeOf(call) === outcome).length;
  const tally = ['refused', 'denied', 'failed', 'approved']
    .map((outcome) => [outcome, counted(outcome)] as const)
    .filter(([, count]) => count > 0)
    .map(([outcome, count]) => `${count} ${outcome}`);
  return element(
    'header',
    {},
    element('h1', {}, 'toolgate ledger ', element('span', { class: 'file' }, state.file)),
    element(
      'div',
      { class: `status ${check.ok ? 'status-ok' : 'status-bad'}`, data: { testid: 'status' } },
      element('strong', {}, check.text),
      check.note ? element('span', { class: 'note' }, check.note) : undefined,
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
      element('span', { class: `mode mode-${state.mode}`, data: { testid: 'mode' } }, modes[state.mode]),
      element(
        'span',
        {},
        `${calls.length} tool calls${tally.length > 0 ? `: ${tally.join(', ')}` : ''} · ${state.count} records`,
      ),
    ),
  );
}
