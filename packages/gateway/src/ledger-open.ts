import { ToolgateError } from '@toolgate/core';
import { FileStore, type LedgerEvent, type LedgerStore, readAll, readLedgerFile } from '@toolgate/ledger';
import { isPostgresUrl, PostgresStore, verifyPostgresLedger } from '@toolgate/ledger-postgres';

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
 * error), anything else a `FileStore` with the given durability (a PostgreSQL append is committed
 * before it returns, whatever the durability).
 */
export function openLedger(
  location: string,
  options: { durability: 'always' | 'batch' | 'none' },
): Promise<LedgerStore> {
  if (isPostgresUrl(location)) return PostgresStore.open(location);
  return FileStore.open(location, { durability: options.durability });
}

/**
 * The events of an existing gateway ledger, verified, in seq order: a file (read as
 * `readLedgerFile` does, verifying the chain as it goes) or a `postgres://` URL, which must name a
 * ledger that exists (a typo never creates an empty one). A PostgreSQL ledger is verified first
 * (`verifyPostgresLedger`), then read up to the verified head, whose hash the last event read must
 * carry; a failed verification is a LEDGER_CORRUPT error naming the seq.
 */
export async function readLedger(location: string, options: { kind?: string } = {}): Promise<LedgerEvent[]> {
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
