import type { LedgerEvent } from '@toolgate/ledger';
import { safeJson, shownProse, shownWord } from './quote.js';

/** ANSI styles, or none. */
export interface Styles {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const plain: Styles = { dim: id, bold: id, red: id, green: id, yellow: id, cyan: id };

function id(text: string): string {
  return text;
}

function ansi(open: number, close: number): (text: string) => string {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

/** Colour on a terminal, unless NO_COLOR is set (https://no-color.org). */
export function stylesFor(stream: { isTTY?: boolean }, environment: NodeJS.ProcessEnv): Styles {
  if (!stream.isTTY || (environment.NO_COLOR !== undefined && environment.NO_COLOR !== '')) return plain;
  return {
    dim: ansi(2, 22),
    bold: ansi(1, 22),
    red: ansi(31, 39),
    green: ansi(32, 39),
    yellow: ansi(33, 39),
    cyan: ansi(36, 39),
  };
}

type Payload = Record<string, unknown>;

/**
 * One event as a readable line: `#seq at turn actor kind summary`. Every field from the ledger is
 * shown bare only when it is a plain word (or, for reasons and messages, plain prose) and quoted
 * with escapes otherwise, and JSON has its C1 controls, bidi overrides and separators escaped: a
 * tool name holding a line break or a terminal escape cannot forge a line or drive the terminal.
 */
export function formatEvent(event: LedgerEvent, styles: Styles): string {
  const payload = (event.payload ?? {}) as Payload;
  const head = `${styles.dim(`#${event.seq}`)} ${styles.dim(shownWord(event.at))} ${styles.dim(`t${event.turn}`)} ${styles.bold(shownWord(event.actor))}`;
  return `${head} ${kindOf(event.kind, payload, styles)} ${summary(event.kind, payload)}`;
}

function kindOf(kind: string, payload: Payload, styles: Styles): string {
  const shown = shownWord(kind);
  if (kind === 'tool.called') return styles.cyan(shown);
  if (kind === 'policy.decided')
    return payload.decision === 'deny' ? styles.red(shown) : styles.yellow(shown);
  if (kind === 'tool.returned') return payload.isError ? styles.red(shown) : styles.green(shown);
  return shown;
}

/** A payload field as a word: strings bare or quoted, anything else as (safe) JSON. */
function word(value: unknown): string {
  return typeof value === 'string' ? shownWord(value) : safeJson(value);
}

function prose(value: unknown): string {
  return typeof value === 'string' ? shownProse(value) : safeJson(value);
}

function summary(kind: string, payload: Payload): string {
  const call = `${word(payload.tool)} [${word(payload.callId)}]`;
  if (kind === 'tool.called') return `${call} ${safeJson(payload.parameters)}`;
  if (kind === 'policy.decided') return `${call} ${word(payload.decision)}: ${prose(payload.reason)}`;
  if (kind === 'tool.returned') {
    const error = (payload.error ?? {}) as { code?: unknown; message?: unknown };
    return payload.isError
      ? `${call} ${word(error.code)}: ${prose(error.message)}`
      : `${call} ${clip(safeJson(payload.output))}`;
  }
  return clip(safeJson(payload));
}

function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
