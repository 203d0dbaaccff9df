import { stat, unlink } from 'node:fs/promises';
import { ToolgateError } from '@toolgate/core';
import { FileStore, type LedgerEvent, type LedgerStore, readAll, readLedgerFile } from '@toolgate/ledger';
import { isPostgresUrl, PostgresStore, verifyPostgresLedger } from '@toolgate/ledger-postgres';
import type { GatewayConfig } from './config-types.js';
import { chainFiles, isLedgerDirectory, newChainFile } from './ledger-directory.js';

/**
 * Where a gateway ledger is, said safely for a message: a file's path as given, or a
 * `postgres://host:port/database (ledger "name")` without the user or password of the URL.
 */
export function ledgerLabel(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    const name = url.searchParams.get('ledger') ?? 'default';
    return `postgres://${url.host}${url.pathname} (ledger ${JSON.stringify(name)})`;
  } catch {
    return 'the postgres:// ledger (its URL is not shown: it may hold a password)';
  }
}

/**
 * Opens the gateway's ledger for writing: a `postgres://…?ledger=NAME` URL opens a `PostgresStore`
 * (creating its tables and the ledger when missing; `pg` is loaded now, and its absence is a clear
 * error), a directory (ending with `/`) a new chain file of this process in it, anything else a
 * `FileStore` with the given durability (a PostgreSQL append is committed before it returns,
 * whatever the durability). A file another gateway writes is refused naming the directory fix.
 */
export async function openLedger(
  location: string,
  options: { durability: 'always' | 'batch' | 'none' },
): Promise<LedgerStore> {
  if (isPostgresUrl(location)) return PostgresStore.open(location);
  const file = isLedgerDirectory(location) ? await newChainFile(location) : location;
  try {
    return await FileStore.open(file, { durability: options.durability });
  } catch (error) {
    if (
      !(
        ToolgateError.is(error) &&
        error.code === 'LEDGER_UNAVAILABLE' &&
        /already open for writing/.test(error.message)
      )
    ) {
      throw error;
    }
    throw new ToolgateError(
      'LEDGER_UNAVAILABLE',
      `${error.message}. To run several gateways from one config (each client starting its own), ` +
        `make the ledger a directory — ledger: ${location.replace(/\.jsonl$/, '')}/ — where each gateway ` +
        'writes a chain of its own, or a postgres:// ledger',
      { cause: error },
    );
  }
}

/**
 * The events of an existing gateway ledger, verified, in seq order: a file (read as
 * `readLedgerFile` does, verifying the chain as it goes) or a `postgres://` URL, which must name a
 * ledger that exists (a typo never creates an empty one). A PostgreSQL ledger is verified first
 * (`verifyPostgresLedger`), then read up to the verified head, whose hash the last event read must
 * carry; a failed verification is a LEDGER_CORRUPT error naming the seq.
 */
export async function readLedger(location: string, options: { kind?: string } = {}): Promise<LedgerEvent[]> {
  if (isLedgerDirectory(location)) {
    // every chain verified on its own; their events together, oldest first
    const chains = await Promise.all(
      (await chainFiles(location)).map((file) => readAll(readLedgerFile(file, options))),
    );
    return chains.flat().sort((left, right) => left.at.localeCompare(right.at));
  }
  if (!isPostgresUrl(location)) return readAll(readLedgerFile(location, options));
  const verified = await verifyPostgresLedger(location);
  if (!verified.ok) {
    throw new ToolgateError(
      verified.code,
      `the ledger ${ledgerLabel(location)} does not verify at seq ${verified.seq}: ${verified.reason}`,
    );
  }
  const store = await PostgresStore.open(location, { create: false });
  let events: LedgerEvent[];
  try {
    events = (await readAll(store.read())).filter((event) => event.seq <= (verified.last?.seq ?? -1));
  } finally {
    await store.close();
  }
  const last = events.at(-1);
  const linked = events.every(
    (event, index) => event.seq === index && (index === 0 || event.prev === events[index - 1]!.hash),
  );
  if (!linked || last?.hash !== verified.last?.hash) {
    throw new ToolgateError(
      'LEDGER_CORRUPT',
      `the ledger ${ledgerLabel(location)} changed between its verification and its reading; read it again`,
    );
  }
  return options.kind === undefined ? events : events.filter((event) => event.kind === options.kind);
}

/** Removes a ledger file this start made and wrote nothing to (a PostgreSQL ledger is left alone). */
export async function removeIfEmpty(store: LedgerStore): Promise<void> {
  if (!(store instanceof FileStore)) return;
  const size = await stat(store.path).then(
    (status) => status.size,
    () => -1,
  );
  if (size === 0) await unlink(store.path).catch(() => undefined);
}

/**
 * What a call's records wait for under the config's `durability:`: `always`, each effect behind a
 * synced record (`tool.called` and `policy.decided` on disk before the upstream is called, two fsyncs
 * a call); `batch` (and `none`, which never syncs), the call's records synced as a unit before its
 * result (one fsync a call), each written before the step it guards.
 */
export function durableBeforeOf(durability: GatewayConfig['durability']): 'dispatch' | 'result' {
  return durability === 'always' ? 'dispatch' : 'result';
}
