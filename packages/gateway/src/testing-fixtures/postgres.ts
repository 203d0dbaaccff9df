import { it } from 'vitest';

// The minimum of @toolgate/ledger's test-support/postgres.ts (not exported: it is not public API).

/**
 * The server the PostgreSQL tests run against. Without it they are skipped locally; in CI
 * (CI=true) its absence is a failing test, never a skip.
 */
export const postgresUrl = process.env.TOOLGATE_TEST_POSTGRES_URL;

/** Why the PostgreSQL tests did not run. */
export const postgresSkipReason =
  'TOOLGATE_TEST_POSTGRES_URL is not set: start a throwaway cluster (see the ledger README, On PostgreSQL) to run the PostgreSQL tests';

/** Registers the test that fails in CI when no server was given. Call it in each PostgreSQL test file. */
export function requirePostgresInContinuousIntegration(): void {
  if (postgresUrl === undefined && process.env.CI === 'true') {
    it('has a PostgreSQL server to test against (CI never skips the PostgreSQL tests)', () => {
      throw new Error(`CI=true but ${postgresSkipReason}`);
    });
  } else if (postgresUrl === undefined) {
    console.warn(`skipped: ${postgresSkipReason}`);
  }
}

let counter = 0;

/** `url` naming a ledger no other test (or earlier run) uses. */
export function freshLedgerUrl(url: string, prefix: string): string {
  const name = `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;
  return `${url}${url.includes('?') ? '&' : '?'}ledger=${name}`;
}
