import { ToolgateError } from '@toolgate/core';
import { parseCommandLine, usageMessage, wholeNumber } from '@toolgate/core/command-line';
import type { LedgerEvent } from '@toolgate/ledger';
import { genesisHash, readLedgerFile, runsOf, verifyLedgerFile } from '@toolgate/ledger';
import { isPostgresUrl, PostgresStore, verifyPostgresLedger } from '@toolgate/ledger-postgres';
import { ledgerLocation } from '@toolgate/ledger-postgres/internal';
import { packageVersion } from '../package-version.js';
import { exportCommand } from './export.js';
import { formatEvent, stylesFor } from './format.js';
import { isDirectory, verifyDirectoryCommand } from './ledger-directory.js';
import { progressLine } from './progress.js';
import { safeJson, shownProse, shownWord } from './quote.js';
import { serveCommand } from './serve.js';
import { trustCommand } from './trust-commands.js';

/** Where the command line writes, and what it reads from its surroundings. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** Exit codes: 0 sound, 1 the ledger failed verification, 2 a usage error, 3 the ledger cannot be read. */
export const exitCodes = { ok: 0, corrupt: 1, usage: 2, unavailable: 3 } as const;

const usage = `usage: toolgate-ledger <command> FILE [options]

FILE is a JSONL ledger file, or a ledger in PostgreSQL: postgres://USER@HOST:PORT/DATABASE?ledger=NAME
(verify, show, head and runs work on it); verify and serve also take a ledger directory (DIR: one
chain file per process, as the gateway's "ledger: DIR/" writes)

commands:
  verify FILE [--head HASH] [--workers N]
                              verify the hash chain; prints the count, or the first bad seq and why
                              (--workers N checks on N threads: faster on idle cores)
  verify DIR                  verify every chain of a ledger directory, each named with its result
  show FILE [--json] [--run ID] [--kind KIND] [--follow]
                              print the events (coloured on a terminal; NO_COLOR turns it off)
  head FILE                   print the seq and hash of the last record, to keep elsewhere
                              (an empty ledger: -1 and the genesis hash, 64 zeros)
  runs FILE [--json]          list the runs: first and last seq and time, and how many events
  serve FILE [--port N] [--host ADDRESS]
                              a read-only page of the ledger on 127.0.0.1, live (serve --help)
  export FILE --html OUT.html the same page as one self-contained file (export --help)
  keygen NAME --out PREFIX    an Ed25519 key pair to sign checkpoints (keygen --help)
  checkpoint FILE --key KEY   sign the Merkle root of the ledger as a C2SP checkpoint (checkpoint --help)
  verify FILE --checkpoint C --pub KEY
                              prove the ledger holds what a signed checkpoint committed to
  verify FILE --decisions     re-judge every recorded decision by the recorded policy
  backtest FILE --policy P…   what another policy would change of the recorded decisions (backtest --help)
  prove FILE SEQ --checkpoint C
                              an inclusion proof of one record (prove --help; --from SIZE: consistency)
  verify-proof PROOF --checkpoint C --pub KEY
                              check an inclusion proof with no ledger (verify-proof --help)
  witness REQUEST --key KEY --log-pub KEY --state FILE
                              cosign a checkpoint that extends the last one cosigned (witness --help)
  --version                   print the version

examples:
  toolgate-ledger head run.jsonl        # 3 5f1c…  (keep the hash elsewhere)
  toolgate-ledger verify run.jsonl --head 5f1c…
  toolgate-ledger verify ./ledgers/     # each gateway-….jsonl, then "ok, 3 chains verified"
  toolgate-ledger runs 'postgres://toolgate@db.internal/agents?ledger=fleet'

exit codes: 0 sound, 1 failed verification, 2 usage error, 3 cannot read the ledger
`;

/** Runs `toolgate-ledger` with its arguments; resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === 'serve') return serveCommand(argv.slice(1), io);
  if (argv[0] === 'export') return exportCommand(argv.slice(1), io);
  const trust = trustCommand(argv);
  if (trust) return trust(argv.slice(1), io);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(usageMessage({ command: 'toolgate-ledger', problem: (error as Error).message, usage }));
    return exitCodes.usage;
  }
  const { values, positionals } = parsed;
  const [command, file, ...extra] = positionals;
  if (values.help) {
    io.stdout.write(usage);
    return exitCodes.ok;
  }
  if (values.version) {
    io.stdout.write(`toolgate-ledger ${packageVersion}\n`);
    return exitCodes.ok;
  }
  if (!command || !commands.includes(command) || !file || extra.length > 0) {
    const problem = !command
      ? 'no command given'
      : !commands.includes(command)
        ? `unknown command "${command}"`
        : !file
          ? `"${command}" needs a ledger FILE`
          : `unexpected arguments: ${extra.join(' ')}`;
    io.stderr.write(usageMessage({ command: 'toolgate-ledger', problem, usage }));
    return exitCodes.usage;
  }
  if (values.head !== undefined && !/^[0-9a-f]{64}$/i.test(values.head)) {
    io.stderr.write(
      `toolgate-ledger: --head ${JSON.stringify(values.head)} is not a ledger head: ` +
        'give the 64-hex-digit hash that `toolgate-ledger head FILE` printed after the seq\n',
    );
    return exitCodes.usage;
  }
  // The genesis hash is the head of an empty ledger, and every ledger starts from it.
  const head =
    values.head === undefined || values.head.toLowerCase() === genesisHash
      ? undefined
      : values.head.toLowerCase();
  let workers: number;
  try {
    workers =
      values.workers === undefined ? 0 : wholeNumber(values.workers, { option: '--workers', max: 64 });
  } catch (error) {
    io.stderr.write(usageMessage({ command: 'toolgate-ledger', problem: (error as Error).message }));
    return exitCodes.usage;
  }
  if (!isPostgresUrl(file) && isDirectory(file)) {
    if (command !== 'verify' || values.head !== undefined) {
      const what = command === 'verify' ? '--head' : `"${command}"`;
      io.stderr.write(
        `toolgate-ledger: ${file} is a ledger directory (one chain per process); ${what} takes one chain ` +
          `of it (toolgate-ledger ${command} ${file.replace(/\/$/, '')}/NAME.jsonl), and "verify ${file}" verifies them all\n`,
      );
      return exitCodes.usage;
    }
    try {
      return await verifyDirectoryCommand(file, workers, io);
    } catch (error) {
      return fail(error, io);
    }
  }
  try {
    if (command === 'show') return await show(file, values, io);
    if (command === 'runs') return await runs(file, values.json ?? false, io);
    // A URL is named without its user and password.
    const shown = isPostgresUrl(file) ? ledgerLocation(file).label : file;
    // On a terminal, a line saying the work goes on (a large ledger takes seconds); cleared after.
    const stopProgress = progressLine(io.stderr, `${command === 'head' ? 'reading' : 'verifying'} ${shown}`, {
      ...(isPostgresUrl(file) ? {} : { file }),
      ...(io.env.TOOLGATE_PROGRESS_AFTER_MS ? { afterMs: Number(io.env.TOOLGATE_PROGRESS_AFTER_MS) } : {}),
    });
    const result = await (isPostgresUrl(file)
      ? verifyPostgresLedger(file, head === undefined ? {} : { head })
      : verifyLedgerFile(file, {
          ...(head === undefined ? {} : { head }),
          ...(workers > 0 ? { workers } : {}),
        })
    ).finally(stopProgress);
    if (!result.ok) {
      // the reason may quote the bad line itself: escaped like everything else read from the ledger
      io.stderr.write(`${shown}: bad record at seq ${result.seq}: ${shownProse(result.reason)}\n`);
      return result.code === 'LEDGER_UNAVAILABLE' ? exitCodes.unavailable : exitCodes.corrupt;
    }
    // An empty ledger is sound (nothing in it can have been tampered with), so both commands exit 0;
    // its head is the genesis hash, which `verify --head` accepts for any ledger.
    if (command === 'head') {
      if (!result.last) {
        io.stderr.write(
          `${shown}: the ledger is empty; its head is the genesis hash every ledger starts from\n`,
        );
        io.stdout.write(`-1 ${genesisHash}\n`);
        return exitCodes.ok;
      }
      io.stdout.write(`${result.last.seq} ${result.last.hash}\n`);
      return exitCodes.ok;
    }
    const last = result.last
      ? ` (last seq ${result.last.seq}, hash ${result.last.hash})`
      : ': the ledger is empty (its head is the genesis hash, 64 zeros)';
    io.stdout.write(`${shown}: ok, ${result.count} records verified${last}\n`);
    return exitCodes.ok;
  } catch (error) {
    return fail(error, io);
  }
}

const commands = ['verify', 'show', 'head', 'runs'];

const optionShapes = {
  head: { type: 'string' },
  workers: { type: 'string' },
  json: { type: 'boolean' },
  run: { type: 'string' },
  kind: { type: 'string' },
  follow: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

function parse(argv: readonly string[]) {
  return parseCommandLine(argv, { options: optionShapes, positionals: true });
}

async function show(
  file: string,
  values: { json?: boolean; run?: string; kind?: string; follow?: boolean },
  io: CliIo,
): Promise<number> {
  const styles = stylesFor(io.stdout, io.env);
  const filter = {
    ...(values.run === undefined ? {} : { runId: values.run }),
    ...(values.kind === undefined ? {} : { kind: values.kind }),
    ...(io.signal ? { signal: io.signal } : {}),
  };
  const write = (events: AsyncIterable<LedgerEvent>) => print(events, values.json ?? false, styles, io);
  if (!isPostgresUrl(file)) {
    await write(readLedgerFile(file, { ...filter, follow: values.follow ?? false }));
    return exitCodes.ok;
  }
  const store = await PostgresStore.open(file, { create: false });
  try {
    await write(values.follow ? store.follow(filter) : store.read(filter));
  } finally {
    await store.close();
  }
  return exitCodes.ok;
}

async function print(
  events: AsyncIterable<LedgerEvent>,
  json: boolean,
  styles: ReturnType<typeof stylesFor>,
  io: CliIo,
): Promise<void> {
  for await (const event of events) {
    if (io.signal?.aborted) return;
    io.stdout.write(`${json ? safeJson(event) : formatEvent(event, styles)}\n`);
  }
}

async function runs(file: string, json: boolean, io: CliIo): Promise<number> {
  let list: Awaited<ReturnType<typeof runsOf>>;
  if (isPostgresUrl(file)) {
    const store = await PostgresStore.open(file, { create: false });
    try {
      list = await store.runs();
    } finally {
      await store.close();
    }
  } else list = await runsOf(readLedgerFile(file));
  if (list.length === 0) {
    const shown = isPostgresUrl(file) ? ledgerLocation(file).label : file;
    io.stderr.write(`${shown}: the ledger has no runs yet\n`);
  }
  for (const run of list) {
    io.stdout.write(
      json
        ? `${safeJson(run)}\n`
        : `${shownWord(run.runId)}\tseq ${run.firstSeq}..${run.lastSeq}\t${run.count} events\t${shownWord(run.firstAt)} .. ${shownWord(run.lastAt)}\n`,
    );
  }
  return exitCodes.ok;
}

function fail(error: unknown, io: CliIo): number {
  if (ToolgateError.is(error)) {
    io.stderr.write(`toolgate-ledger: ${error.message}\n`);
    return error.code === 'LEDGER_CORRUPT' ? exitCodes.corrupt : exitCodes.unavailable;
  }
  io.stderr.write(`toolgate-ledger: ${(error as Error).message ?? String(error)}\n`);
  return exitCodes.unavailable;
}
