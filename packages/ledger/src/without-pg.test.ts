import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { withoutPgImport } from './test-support/without-pg.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageDirectory = join(here, '..');
const dist = join(packageDirectory, 'dist');

/** Runs a script against the built package in a process where `pg` cannot be found. */
async function runWithoutPg(script: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', withoutPgImport, '--input-type=module', '-e', script],
    { timeout: 60_000 },
  );
  return stdout.trim();
}

/** Every file of the built package, relative to dist/. */
function builtFiles(directory = dist): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? builtFiles(join(directory, entry.name)).map((file) => join(entry.name, file))
      : [entry.name],
  );
}

describe('the ledger knows nothing of pg (PostgreSQL is @toolgate/ledger-postgres)', () => {
  it('imports, records and verifies without pg installed', async () => {
    const output = await runWithoutPg(`
      const { MemoryStore, verifyLedgerText } = await import(${JSON.stringify(join(dist, 'index.js'))});
      const store = new MemoryStore();
      await store.append({ runId: 'r', kind: 'run.started', actor: 'system' });
      console.log(JSON.stringify([(await verifyLedgerText(store.toJsonl())).ok, await import('pg').then(() => 'pg found', () => 'pg missing')]));
    `);
    expect(JSON.parse(output)).toEqual([true, 'pg missing']);
  });

  it('names pg in none of its code, type declarations or dependencies', () => {
    const files = builtFiles().filter((file) => file.endsWith('.js') || file.endsWith('.d.ts'));
    expect(files).toContain('index.d.ts');
    const naming = files.filter((file) =>
      /\bfrom\s*['"]pg['"]|import\(\s*['"]pg['"]\s*\)/.test(readFileSync(join(dist, file), 'utf8')),
    );
    expect(naming).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'));
    const fields = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
    expect(
      fields.filter(
        (field) => manifest[field]?.pg !== undefined || manifest[field]?.['@types/pg'] !== undefined,
      ),
    ).toEqual([]);
  });
});
