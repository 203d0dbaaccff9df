import type { LedgerEvent } from '@toolgate/ledger';

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

/** One event as a readable line: `#seq at turn actor kind summary`. */
export function formatEvent(event: LedgerEvent, styles: Styles): string {
  const payload = (event.payload ?? {}) as Payload;
  const head = `${styles.dim(`#${event.seq}`)} ${styles.dim(event.at)} ${styles.dim(`t${event.turn}`)} ${styles.bold(event.actor)}`;
  return `${head} ${kindOf(event.kind, payload, styles)} ${summary(event.kind, payload)}`;
}

function kindOf(kind: string, payload: Payload, styles: Styles): string {
  if (kind === 'tool.called') return styles.cyan(kind);
  if (kind === 'policy.decided') return payload.decision === 'deny' ? styles.red(kind) : styles.yellow(kind);
  if (kind === 'tool.returned') return payload.isError ? styles.red(kind) : styles.green(kind);
  return kind;
}

function summary(kind: string, payload: Payload): string {
  const call = `${String(payload.tool)} [${String(payload.callId)}]`;
  if (kind === 'tool.called') return `${call} ${JSON.stringify(payload.parameters)}`;
  if (kind === 'policy.decided') return `${call} ${String(payload.decision)}: ${String(payload.reason)}`;
  if (kind === 'tool.returned') {
    const error = payload.error as { code?: string; message?: string } | undefined;
    return payload.isError
      ? `${call} ${error?.code}: ${error?.message}`
      : `${call} ${clip(JSON.stringify(payload.output))}`;
  }
  return clip(JSON.stringify(payload));
}

function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
