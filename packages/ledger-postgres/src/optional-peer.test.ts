import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { withoutPgImport } from './testing/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist', 'index.js');
const ledgerDist = join(
  dirname(createRequire(import.meta.url).resolve('@toolgate/ledger/package.json')),
  'dist',
  'index.js',
);

/** Runs a script against the built package in a process where `pg` cannot be found. */
async function runWithoutPg(script: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', withoutPgImport, '--input-type=module', '-e', script],
    { timeout: 60_000 },
  );
  return stdout.trim();
}

describe('pg is an optional peer dependency', () => {
  it('imports, records and verifies without pg installed', async () => {
    const output = await runWithoutPg(`
      const { MemoryStore, verifyLedgerText } = await import(${JSON.stringify(ledgerDist)});
      const store = new MemoryStore();
      await store.append({ runId: 'r', kind: 'run.started', actor: 'system' });
      console.log(JSON.stringify([(await verifyLedgerText(store.toJsonl())).ok, await import('pg').then(() => 'pg found', () => 'pg missing')]));
    `);
    expect(JSON.parse(output)).toEqual([true, 'pg missing']);
  });

  it('refuses a postgres:// ledger without pg with an error that says to install it', async () => {
    const output = await runWithoutPg(`
      const { PostgresStore, verifyPostgresLedger } = await import(${JSON.stringify(dist)});
      const errors = await Promise.all([
        PostgresStore.open('postgres://127.0.0.1:1/db?ledger=x').catch((error) => error),
        verifyPostgresLedger('postgres://127.0.0.1:1/db').catch((error) => error),
      ]);
      console.log(JSON.stringify(errors.map((error) => [error.code, error.message])));
    `);
    for (const [code, message] of JSON.parse(output)) {
      expect(code).toBe('LEDGER_UNAVAILABLE');
      expect(message).toContain('needs the "pg" package, which is not installed: run `pnpm add pg`');
    }
  });
});
