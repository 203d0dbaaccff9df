import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { parseCommandLine, usageMessage } from '@toolgate/core/command-line';
import { recordLeaf } from '@toolgate/ledger';
import { pageAssets } from '../viewer/assets.js';
import { renderPage } from '../viewer/html.js';
import { loadLedger } from '../viewer/load.js';
import type { ViewerCheckpoint, ViewerSnapshot } from '../viewer/snapshot.js';
import { chainsOf, isDirectory } from './ledger-directory.js';
import type { CliIo } from './main.js';
import { shownProse } from './quote.js';
import { openCheckpoint, readVerifierKeys, UsageProblem } from './trust-io.js';
import { checkpointVerdict } from './verify-checkpoint.js';

/** The help of `toolgate-ledger export`. */
export const exportUsage = `usage: toolgate-ledger export FILE --html OUT.html [--checkpoint FILE … --pub KEY …]

Writes one self-contained page of the ledger (the data embedded; no server, no network), the same
page \`serve\` shows, to attach to a bug report. A ledger that fails verification or cannot be read is
still written, with the failure at the top; OUT.html is replaced if it exists. With --checkpoint
(and the log's --pub, and a witness's), the page says under the verification whether the ledger
holds what each signed checkpoint committed to: signed by whom, covering which records.

example:
  toolgate-ledger export .ledgers/oracle-grove.jsonl --html grove.html

exit codes: 0 written and verified, 1 written but the ledger failed verification,
            2 usage error, 3 the ledger cannot be read (page written) or the page cannot be written
`;

/** Runs `toolgate-ledger export`; resolves to the exit code. */
export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let values: { html?: string; checkpoint?: string[]; pub?: string[]; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseCommandLine(argv, {
      options: {
        html: { type: 'string' },
        checkpoint: { type: 'string', multiple: true },
        pub: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
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
  if (isDirectory(file)) {
    const names = chainsOf(file).map((chain) => `  ${chain.file}`);
    return usageError(
      io,
      `${file} is a ledger directory; export takes one chain of it` +
        (names.length === 0
          ? ' (it holds none yet)'
          : `:\n${names.join('\n')}\n(verify ${file} shows each one's status)`),
    );
  }
  let snapshot = await loadLedger(file);
  if (values.checkpoint?.length) {
    if (!values.pub?.length) return usageError(io, "--checkpoint needs the log's public key: --pub KEY.pub");
    try {
      snapshot = { ...snapshot, checkpoints: checkedCheckpoints(snapshot, values.checkpoint, values.pub) };
    } catch (error) {
      return usageError(io, (error as Error).message);
    }
  }
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

/** Each checkpoint checked against the records that verified (none is said to hold over a bad ledger). */
function checkedCheckpoints(
  snapshot: ViewerSnapshot,
  paths: readonly string[],
  pub: readonly string[],
): ViewerCheckpoint[] {
  const keys = readVerifierKeys(pub);
  const leaves = snapshot.events.map(recordLeaf);
  return paths.map((path) => {
    let opened: ReturnType<typeof openCheckpoint>;
    try {
      opened = openCheckpoint(path, keys);
    } catch (error) {
      if (error instanceof UsageProblem) throw error;
      return { holds: false, text: (error as Error).message };
    }
    if (snapshot.status.state !== 'verified') {
      return { holds: false, text: `checkpoint ${path} not checked: the ledger failed verification` };
    }
    const verdict = checkpointVerdict(leaves, opened);
    return verdict.holds ? verdict : { holds: false, text: `the ledger ${verdict.text}` };
  });
}

function usageError(io: CliIo, problem: string): number {
  io.stderr.write(usageMessage({ command: 'toolgate-ledger export', problem, usage: exportUsage }));
  return 2;
}
