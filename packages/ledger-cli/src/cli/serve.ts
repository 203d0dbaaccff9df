import { once } from 'node:events';
import { ToolgateError } from '@toolgate/core';
import { parseCommandLine, usageMessage, wholeNumber } from '@toolgate/core/command-line';
import { openNote } from '@toolgate/ledger/trust';
import { serveLedgerDirectory } from '../viewer/directory-server.js';
import { isLoopbackHost } from '../viewer/host-guard.js';
import { checkpointClaim, type ViewerTrust } from '../viewer/record-proofs.js';
import { serveLedger } from '../viewer/server.js';
import { isDirectory } from './ledger-directory.js';
import type { CliIo } from './main.js';
import { readText, readVerifierKeyTexts, UsageProblem } from './trust-io.js';

/** The help of `toolgate-ledger serve`. */
export const serveUsage = `usage: toolgate-ledger serve FILE|DIR [--port N] [--host ADDRESS] [--checkpoint FILE --pub KEY …]

Serves a read-only page of the ledger: its verification, its runs, a lane per agent, every call
with its policy verdict and result, and new records live while a run is still writing. Given a
ledger directory (one chain per process, as the gateway's "ledger: DIR/" writes), the first page
lists every chain with its verification, and each links to that chain's page.

  --port N          the port (default 0: any free one; the URL is printed)
  --host ADDRESS    the address to listen on (default 127.0.0.1; anything but loopback is reachable
                    from other machines, so the page and the ledger are too)
  --checkpoint FILE a signed checkpoint (from \`toolgate-ledger checkpoint\`, or a witness's cosigned
                    one): a record's details show its inclusion proof against it, checked in the
                    browser with the keys given (one ledger FILE only)
  --pub KEY         the log's public key (KEY.pub from keygen, or its text); again for a witness's

example:
  toolgate-ledger serve .ledgers/oracle-grove.jsonl --port 4400   # then open http://127.0.0.1:4400/
  toolgate-ledger serve ./ledgers/                                 # the chains, then /chains/NAME/
  toolgate-ledger serve run.jsonl --checkpoint monday.cosigned --pub log.pub --pub w1.pub

exit codes: 0 stopped (Ctrl-C), 2 usage error, 3 cannot listen or the page is not built
`;

/** Runs `toolgate-ledger serve`; resolves to the exit code once the signal stops it. */
export async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let values: { port?: string; host?: string; checkpoint?: string; pub?: string[]; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseCommandLine(argv, {
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        checkpoint: { type: 'string' },
        pub: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      positionals: true,
    }));
  } catch (error) {
    return usageError(io, (error as Error).message);
  }
  if (values.help) {
    io.stdout.write(serveUsage);
    return 0;
  }
  const [file, ...extra] = positionals;
  if (!file) return usageError(io, '"serve" needs a ledger FILE');
  if (extra.length > 0) return usageError(io, `unexpected arguments: ${extra.join(' ')}`);
  let port: number;
  try {
    port = wholeNumber(values.port ?? '0', { option: '--port', max: 65535 });
  } catch (error) {
    return usageError(io, (error as Error).message);
  }
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') return usageError(io, '--host must not be empty');
  let trust: ViewerTrust | undefined;
  if (values.checkpoint !== undefined || values.pub?.length) {
    if (isDirectory(file))
      return usageError(
        io,
        `--checkpoint takes one ledger FILE; ${file} is a ledger directory: name one of its chains`,
      );
    try {
      trust = readTrust(values.checkpoint, values.pub ?? [], io);
    } catch (error) {
      return usageError(io, (error as Error).message);
    }
  }
  let viewer: Awaited<ReturnType<typeof serveLedger>>;
  try {
    viewer = isDirectory(file)
      ? await serveLedgerDirectory(file, { host, port })
      : await serveLedger(file, { host, port, ...(trust && { trust }) });
  } catch (error) {
    io.stderr.write(`toolgate-ledger: ${ToolgateError.is(error) ? error.message : String(error)}\n`);
    return 3;
  }
  if (!isLoopbackHost(host)) {
    io.stderr.write(
      `toolgate-ledger: warning: listening on ${host}, not loopback: other machines can read the ledger\n`,
    );
  }
  io.stdout.write(`serving ${file} read-only at ${viewer.url} (Ctrl-C stops)\n`);
  if (io.signal && !io.signal.aborted) await once(io.signal, 'abort');
  await viewer.close();
  return 0;
}

/**
 * The checkpoint and keys of `--checkpoint`/`--pub`. A checkpoint whose signature the keys do not
 * verify is still served (the page shows every proof failing, and why), with a warning here.
 */
function readTrust(checkpoint: string | undefined, pub: readonly string[], io: CliIo): ViewerTrust {
  if (checkpoint === undefined)
    throw new UsageProblem('--pub goes with --checkpoint FILE, the checkpoint to prove against');
  if (pub.length === 0) throw new UsageProblem("--checkpoint needs the log's public key: --pub KEY.pub");
  const keys = readVerifierKeyTexts(pub);
  const note = readText(checkpoint, 'the checkpoint');
  const claim = checkpointClaim(note);
  if (typeof claim === 'string') throw new UsageProblem(`${checkpoint} is not a signed checkpoint: ${claim}`);
  const opened = openNote(
    note,
    keys.map(({ key }) => key),
  );
  if (!opened.ok) {
    io.stderr.write(
      `toolgate-ledger: warning: checkpoint ${checkpoint} does not verify with the keys given (${opened.reason}); the page shows no record as proven\n`,
    );
  }
  return { path: checkpoint, note, keys: keys.map(({ text }) => text) };
}

function usageError(io: CliIo, problem: string): number {
  io.stderr.write(usageMessage({ command: 'toolgate-ledger serve', problem, usage: serveUsage }));
  return 2;
}
