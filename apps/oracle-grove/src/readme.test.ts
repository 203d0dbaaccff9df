import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../test/fixtures.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const readme = fileURLToPath(new URL('../../../README.md', import.meta.url));
const command = 'pnpm demo --turns 1 --trespass';

describe('the root README', () => {
  it(`shows what \`${command}\` prints, byte for byte (but the ledger's path)`, async () => {
    const text = readFileSync(readme, 'utf8');
    const shown = text.match(
      new RegExp(`What the demo prints \\(\`${command}\`\\):\\n\\n\`\`\`text\\n([\\s\\S]*?)\`\`\``),
    )?.[1];
    expect(shown, `the README has no "What the demo prints (\`${command}\`)" block`).toBeDefined();
    // The README's run writes .ledgers/oracle-grove.jsonl in the clone; this one writes elsewhere.
    const ledger = join(await scratchDir(), 'oracle-grove.jsonl');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, '--turns', '1', '--trespass', '--ledger', ledger],
      { env: { PATH: process.env.PATH } },
    );
    expect(shown).toBe(stdout.replace(`ledger ${ledger}`, 'ledger .ledgers/oracle-grove.jsonl'));
  });
});
