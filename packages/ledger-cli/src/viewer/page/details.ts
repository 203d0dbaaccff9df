import type { LedgerEvent } from '@toolgate/ledger';
import { element } from './dom.js';
import { type CallView, outcomeOf, type Row } from './model.js';
import { proofLine } from './proofs.js';
import { outcomeBadge } from './timeline.js';

const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Image content parts (`{ type: 'image', data, mimeType }`) of an output, shown as images. */
function images(output: unknown): HTMLElement[] {
  const content = (output as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: { type?: unknown; data?: unknown; mimeType?: unknown }) => {
    if (part?.type !== 'image' || typeof part.data !== 'string' || typeof part.mimeType !== 'string')
      return [];
    if (!imageTypes.has(part.mimeType) || !/^[A-Za-z0-9+/]+=*$/.test(part.data)) return [];
    const image = element('img', { class: 'content-image' });
    image.alt = `${part.mimeType} content part`;
    image.src = `data:${part.mimeType};base64,${part.data}`;
    return [image];
  });
}

function record(kind: string, event: LedgerEvent | undefined, missing: string): HTMLElement {
  if (!event) {
    return element(
      'section',
      { class: 'record missing', data: { kind } },
      element('h3', {}, kind),
      element('p', {}, missing),
    );
  }
  const output = (event.payload as { output?: unknown } | null)?.output;
  return element(
    'section',
    { class: 'record', data: { kind } },
    element('h3', {}, kind, ' ', element('span', { class: 'seq' }, `seq ${event.seq}`)),
    element('div', { class: 'hash-line' }, 'hash ', element('code', { class: 'hash' }, event.hash)),
    proofLine(event),
    ...images(output),
    element('pre', {}, JSON.stringify(event, null, 2)),
  );
}

/** The opened row: a call's three records (seq, hash, full JSON), or one record. */
export function renderDetails(row: Row, close: () => void): HTMLElement {
  const button = element('button', { class: 'close', title: 'close (Esc)' }, '×');
  button.addEventListener('click', close);
  if (row.type === 'event') {
    return element(
      'aside',
      { class: 'details', data: { testid: 'details' } },
      button,
      element('h2', {}, `${row.event.kind} by ${row.event.actor}`),
      record(row.event.kind, row.event, ''),
    );
  }
  const call: CallView = row;
  const outcome = outcomeOf(call);
  const noPolicy =
    outcome === 'refused'
      ? 'not recorded: the agent is not granted this tool, so the call was refused before policy was asked'
      : 'not recorded: the call ended before policy was asked';
  return element(
    'aside',
    { class: 'details', data: { testid: 'details' } },
    button,
    element('h2', {}, `${call.tool} by ${call.agent} `, outcomeBadge(outcome)),
    element('p', { class: 'note' }, `call ${call.callId} · run ${call.runId} · turn ${call.turn}`),
    record('tool.called', call.called, 'not recorded'),
    record('policy.decided', call.decided, noPolicy),
    record('tool.returned', call.returned, 'not recorded yet: the call has not returned'),
  );
}
