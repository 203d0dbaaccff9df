/**
 * The server PostgreSQL tests run against (`TOOLGATE_TEST_POSTGRES_URL`). Without it they are
 * skipped locally; in CI (`CI=true`) its absence is a failing test, never a skip.
 */
export const postgresUrl: string | undefined = process.env.TOOLGATE_TEST_POSTGRES_URL;

/** Why the PostgreSQL tests did not run: for the name of the skipped suite. */
export const postgresSkipReason =
  'TOOLGATE_TEST_POSTGRES_URL is not set: start a throwaway cluster (see the @toolgate/ledger-postgres README, Try it) to run the PostgreSQL tests';

/**
 * Registers, through the test runner's `test` (vitest's `it`), a test that fails in CI when no server
 * was given; locally it warns once. Call it in each PostgreSQL test file.
 *
 * @example
 * import { it } from 'vitest';
 * requirePostgresInContinuousIntegration(it);
 */
export function requirePostgresInContinuousIntegration(test: (name: string, body: () => void) => void): void {
  if (postgresUrl === undefined && process.env.CI === 'true') {
    test('has a PostgreSQL server to test against (CI never skips the PostgreSQL tests)', () => {
      throw new Error(`CI=true but ${postgresSkipReason}`);
    });
  } else if (postgresUrl === undefined) {
    console.warn(`skipped: ${postgresSkipReason}`);
  }
}

let counter = 0;

/** A ledger name no other test (or earlier run) uses. */
export function freshLedgerName(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;
}

/** `url` with `?ledger=` set to a {@link freshLedgerName}. */
export function freshLedgerUrl(url: string, prefix: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}ledger=${freshLedgerName(prefix)}`;
}
