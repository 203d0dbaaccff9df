import { statSync } from 'node:fs';

/** Where the progress line goes: the command line's stderr. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * A progress line for long work on a terminal: after `afterMs` (default one second, so quick work
 * shows nothing) it keeps `\r<label> (<size>): <seconds> s` on stderr, redrawn every half second,
 * until the returned `stop` clears it (`afterMs` 0 draws at once). Nothing at all is written when stderr is not a terminal, so
 * pipes and logs stay clean.
 */
export function progressLine(
  stream: ProgressStream,
  label: string,
  options: { file?: string; afterMs?: number } = {},
): () => void {
  if (!stream.isTTY) return () => {};
  const started = Date.now();
  const size = options.file === undefined ? '' : ` (${sizeOf(options.file)})`;
  let drawn = false;
  const draw = () => {
    drawn = true;
    stream.write(`\r\u001b[K${label}${size}: ${Math.floor((Date.now() - started) / 1000)} s`);
  };
  let ticker: NodeJS.Timeout | undefined;
  const start = () => {
    draw();
    ticker = setInterval(draw, 500);
  };
  const afterMs = options.afterMs ?? 1000;
  const first = afterMs > 0 ? setTimeout(start, afterMs) : undefined;
  if (afterMs <= 0) start();
  return () => {
    clearTimeout(first);
    clearInterval(ticker);
    if (drawn) stream.write('\r\u001b[K');
  };
}

function sizeOf(file: string): string {
  try {
    const bytes = statSync(file).size;
    return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
  } catch {
    return 'size unknown';
  }
}
