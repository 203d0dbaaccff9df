import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseCommandLine, ToolgateError, usageMessage } from '@toolgate/core';
import { pageAssets } from '../viewer/assets.js';
import { renderPage } from '../viewer/html.js';
import { loadLedger } from '../viewer/load.js';
import type { CliIo } from './main.js';
import { shownProse } from './quote.js';

/** The help of `toolgate-ledger export`. */
export const exportUsage = `usage: toolgate-ledger export FILE --html OUT.html

Writes one self-contained page of the ledger (the data embedded; no server, no network), the same
page \`serve\` shows, to attach to a bug report. A ledger that fails verification or cannot be read is
still written, with the failure at the top; OUT.html is replaced if it exists.

example:
  toolgate-ledger export .ledgers/oracle-grove.jsonl --html grove.html

exit codes: 0 written and verified, 1 written but the ledger failed verification,
            2 usage error, 3 the ledger cannot be read (page written) or the page cannot be written
`;

/** Runs `toolgate-ledger export`; resolves to the exit code. */
export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let values: { html?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseCommandLine(argv, {
      options: { html: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      positionals: true,
    }));
  } catch (error) {
    return usageError(io, (error as Error).message);
  }
  if (values.help) {
    io.stdout.write(exportUsage);
    return 0;
  }
  const [file, ...extra] = positionals;
  if (!file) return usageError(io, '"export" needs a ledger FILE');
  if (extra.length > 0) return usageError(io, `unexpected arguments: ${extra.join(' ')}`);
  const out = values.html;
  if (!out) return usageError(io, '"export" needs --html OUT.html, the page to write');
  if (resolve(out) === resolve(file)) {
    return usageError(io, `--html "${out}" is the ledger itself; name another file for the page`);
  }
  const snapshot = await loadLedger(file);
  try {
    await writeFile(out, renderPage(await pageAssets(), snapshot));
  } catch (error) {
    io.stderr.write(
      `toolgate-ledger: cannot write ${out}: ${ToolgateError.is(error) ? error.message : String(error)}\n`,
    );
    return 3;
  }
  const { status } = snapshot;
  if (status.state === 'unreadable') {
    io.stderr.write(
      `toolgate-ledger: ${shownProse(status.message)} (wrote ${out} with the failure at the top)\n`,
    );
    return 3;
  }
  if (status.state === 'corrupt') {
    io.stderr.write(
      `${file}: bad record at seq ${status.seq}: ${shownProse(status.reason)} (wrote ${out}: ${snapshot.events.length} records before it)\n`,
    );
    return 1;
  }
  io.stdout.write(`${out}: ${snapshot.events.length} records, verified\n`);
  return 0;
}

function usageError(io: CliIo, problem: string): number {
  io.stderr.write(usageMessage({ command: 'toolgate-ledger export', problem, usage: exportUsage }));
  return 2;
}
