import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const builtCli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

describe('toolgate-ledger --version', () => {
  it('prints the package version and exits 0', async () => {
    const out: string[] = [];
    const io = { stdout: { write: (text: string) => out.push(text) }, stderr: { write: () => 0 }, env: {} };
    expect(await main(['--version'], io)).toBe(0);
    expect(out.join('')).toBe(`toolgate-ledger ${version}\n`);
  });

  it('prints it from the built command too', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [builtCli, '--version']);
    expect(stdout).toBe(`toolgate-ledger ${version}\n`);
  });
});
