import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEnvironment } from '../local-environment.js';
import { SandboxEnvironment } from '../sandbox/index.js';
import { giveToSandboxUser } from '../testing/index.js';

// Run by a test with a directory descriptor inherited at 30 (as a supervisor might leave one): this
// process sees it, then each environment's command tries to read the secret through it.
const root = mkdtempSync(join(tmpdir(), 'toolgate-fd-'));
try {
  giveToSandboxUser(root);
  const attack =
    'cat /proc/self/fd/30/secret.txt; for f in /proc/self/fd/*; do echo "$(basename "$f") $(readlink "$f")"; done';
  const results: Record<string, unknown> = { parent: readdirSync('/proc/self/fd/30') };
  for (const [name, environment] of [
    ['local', new LocalEnvironment({ root })],
    ['sandbox', new SandboxEnvironment({ root })],
  ] as const) {
    const { stdout, stderr } = await environment.exec(attack);
    results[name] = { stdout, stderr };
  }
  console.log(JSON.stringify(results));
} finally {
  rmSync(root, { recursive: true, force: true });
}
