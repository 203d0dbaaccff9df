import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const example = fileURLToPath(new URL('..', import.meta.url));
const ledger = fileURLToPath(new URL('../agent.ledger.jsonl', import.meta.url));

describe('the quick start', () => {
  afterEach(() => rmSync(ledger, { force: true }));

  it('is the root README first example, word for word', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const first = readme.match(/```ts\n([\s\S]*?)```/)?.[1];
    expect(first).toBe(readFileSync(new URL('../agent.ts', import.meta.url), 'utf8'));
  });

  it('runs as its README says (pnpm start: tsx agent.ts, against the built packages) and prints what the comments promise', async () => {
    rmSync(ledger, { force: true });
    const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
    const { stdout } = await promisify(execFile)(tsx, ['agent.ts'], { cwd: example });
    expect(stdout).toContain('- glob: Find workspace files');
    expect(stdout).toContain("output: { paths: [ 'src/greet.ts' ] }");
    expect(stdout).toContain("code: 'PERMISSION_DENIED'");
    expect(stdout).toContain("code: 'CAPABILITY_VIOLATION'");
    expect(stdout).toMatch(/ok: true,\s+count: 8,/);
  });
});
