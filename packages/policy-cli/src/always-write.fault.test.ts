import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePolicyText } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const writer = join(here, 'test-support', 'write-always-rules.mjs');
const built = join(here, '..', 'dist', 'index.js');

/** Starts a writer process and resolves once it has loaded and waits for "go". */
function startWriter(file: string, name: string, count: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [writer, file, name, String(count)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`writer ${name} exited (${code}) before it was ready`)));
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('writeAlwaysRule across processes', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every rule of several processes writing the same user file at once, and a valid file', async () => {
    expect(existsSync(built), `build the package first: pnpm --filter @toolgate/policy-cli... build`).toBe(
      true,
    );
    dir = mkdtempSync(join(tmpdir(), 'toolgate-always-processes-'));
    const file = join(dir, 'user.yaml');
    writeFileSync(file, '# my answers\ndefault: ask\nrules: []\n');
    const names = ['alpha', 'beta', 'gamma'];
    const count = 30;
    const writers = await Promise.all(names.map((name) => startWriter(file, name, count)));
    const exits = writers.map(exitOf);
    for (const child of writers) child.stdin!.write('go\n');
    for (const exit of await Promise.all(exits)) expect(exit).toEqual({ code: 0, stderr: '' });

    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# my answers');
    const paths = parsePolicyText(text, file).document.rules.flatMap((rule) => rule.paths ?? []);
    const expected = names.flatMap((name) =>
      Array.from({ length: count }, (_, index) => `${name}-${index}.txt`),
    );
    expect([...paths].sort()).toEqual([...expected].sort());
    // nothing left behind: no lock, no temporary file
    expect(readdirSync(dir)).toEqual(['user.yaml']);
  }, 120_000);
});
