import { ToolgateError } from '@toolgate/core';

/** True when a ledger location names a PostgreSQL database rather than a file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** A PostgreSQL ledger location: the connection string for `pg`, the ledger's name, and a safe label. */
export interface LedgerLocation {
  readonly connectionString: string;
  readonly ledger: string;
  /** `postgres://host:port/database (ledger "name")`, without user or password, for messages. */
  readonly label: string;
}

/** The default ledger name when neither the URL nor the options give one. */
export const defaultLedgerName = 'default';

/**
 * Reads a `postgres://…[?ledger=NAME]` URL; `ledger` (the option) wins over the URL's parameter.
 * The parameter is removed before the URL reaches `pg`.
 */
export function ledgerLocation(url: string, ledger?: string): LedgerLocation {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'the PostgreSQL ledger URL is not a URL: give postgres://USER@HOST:PORT/DATABASE?ledger=NAME',
    );
  }
  if (!isPostgresUrl(url)) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `the PostgreSQL ledger URL starts with ${JSON.stringify(parsed.protocol)}, not postgres:// or postgresql://`,
    );
  }
  const name = ledger ?? parsed.searchParams.get('ledger') ?? defaultLedgerName;
  if (name.length === 0 || name.length > 200 || name.includes('\u0000')) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `the ledger name ${JSON.stringify(name)} must be 1 to 200 characters without NUL`,
    );
  }
  parsed.searchParams.delete('ledger');
  const where = `postgres://${parsed.host}${parsed.pathname}`;
  return {
    connectionString: parsed.toString(),
    ledger: name,
    label: `${where} (ledger ${JSON.stringify(name)})`,
  };
}

/** A database failure as the ledger's error: what failed, on which ledger, and what to do. */
export function unavailable(location: LedgerLocation, doing: string, error: unknown): ToolgateError {
  if (ToolgateError.is(error)) return error;
  const cause = error as { message?: string; code?: string };
  const code = typeof cause.code === 'string' ? ` [${cause.code}]` : '';
  return new ToolgateError(
    'LEDGER_UNAVAILABLE',
    `the PostgreSQL ledger ${location.label} could not ${doing}: ${cause.message ?? String(error)}${code}`,
    { cause: error },
  );
}
