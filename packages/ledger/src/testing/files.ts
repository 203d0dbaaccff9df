import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temporary directory per test, removed afterwards; returns a path maker inside it. */
export function temporaryFiles(): (name: string) => string {
  let directory: string | undefined;
  afterEach(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
    directory = undefined;
  });
  return (name) => {
    directory ??= mkdtempSync(join(tmpdir(), 'toolgate-ledger-'));
    return join(directory, name);
  };
}
