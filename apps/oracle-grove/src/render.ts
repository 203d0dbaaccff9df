import type { LedgerEvent } from '@toolgate/ledger';
import { textOf } from './agents.js';
import type { RunSummary } from './conductor.js';

const codes = { dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;
type Colour = keyof typeof codes;

/** Paints text when colour is on (a TTY without NO_COLOR). */
export type Paint = (colour: Colour, text: string) => string;

/** The painter for a stream: ANSI colours on a TTY unless NO_COLOR is set; plain text otherwise. */
export function painterFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Paint {
  const on = stream.isTTY === true && !env.NO_COLOR;
  return (colour, text) => (on ? `\u001b[${codes[colour]}m${text}\u001b[0m` : text);
}

const kindColours: Record<string, Colour> = {
  'run.started': 'blue',
  'run.finished': 'blue',
  'world.observed': 'green',
  'oracle.spoke': 'magenta',
  'tool.called': 'cyan',
  'policy.decided': 'dim',
  'tool.returned': 'cyan',
  'tools.described': 'dim',
  'agent.failed': 'red',
};

/** One line of the story for an event. */
export function renderEvent(event: LedgerEvent, paint: Paint): string {
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  const head = `${paint('dim', `[turn ${event.turn}]`)} ${paint(kindColours[event.kind] ?? 'dim', event.kind.padEnd(15))}`;
  return `${head} ${describe(event, payload, paint)}`;
}

function describe(event: LedgerEvent, payload: Record<string, unknown>, paint: Paint): string {
  switch (event.kind) {
    case 'run.started':
      return `${payload.title} — seed ${JSON.stringify(payload.seed)}, ${plural(payload.turns as number, 'turn')}, cast: ${(payload.cast as string[]).join(', ')}`;
    case 'tools.described':
      return `tools on offer: ${(payload.tools as { name: string }[]).map((tool) => tool.name).join(', ') || 'none'}`;
    case 'tool.called':
      return `${event.actor} → ${payload.tool} ${short(JSON.stringify(payload.parameters))}`;
    case 'policy.decided':
      return `${event.actor}: ${payload.decision} (${payload.reason})`;
    case 'tool.returned': {
      const error = payload.error as { code: string; message: string } | undefined;
      return error
        ? `${event.actor} ← ${payload.tool}: ${paint('red', `${error.code}: ${error.message}`)}`
        : `${event.actor} ← ${payload.tool}: ${short(JSON.stringify(payload.output))}`;
    }
    case 'agent.failed': {
      const error = payload.error as { message: string };
      return `${event.actor}: ${paint('red', error.message)} — the run goes on`;
    }
    case 'run.finished':
      return `${payload.reason}`;
    default:
      return `${event.actor}: ${textOf(event)}`;
  }
}

function short(text: string, max = 100): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The closing summary. */
export function renderSummary(
  summary: RunSummary,
  ledger: string,
  head: { seq: number; hash: string },
  paint: Paint,
): string {
  return [
    '',
    paint('blue', 'summary'),
    `  ${plural(summary.turns, 'turn')} · ${plural(summary.events, 'event')} · ${plural(summary.toolCalls, 'tool call')} · ` +
      `${plural(summary.refusals, 'refusal')} · ${plural(summary.failures, 'failed turn')}`,
    `  ledger ${ledger}`,
    `  head   seq ${head.seq} ${head.hash}`,
  ].join('\n');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
