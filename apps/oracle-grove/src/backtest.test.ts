import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LedgerEvent } from '@toolgate/ledger';
import { main } from '@toolgate/ledger-cli';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../test/fixtures.js';
import { runDemo } from './demo.js';

async function backtest(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['backtest', ...argv], {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe("a backtest of the demo's ledger", () => {
  it('names exactly the oracle calls a policy that asks about the fortune-teller would change', async () => {
    const dir = await scratchDir();
    const ledger = join(dir, 'grove.jsonl');
    await runDemo({ env: {}, ledger, seed: 'lichen', turns: 3, trespass: true });
    const events = (await readFile(ledger, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LedgerEvent);
    const decided = events.filter((event) => event.kind === 'policy.decided');
    const teller = decided.filter((event) => event.actor === 'fortune-teller').map((event) => event.seq);
    expect(teller.length).toBeGreaterThan(0);

    const policy = join(dir, 'stricter.yaml');
    await writeFile(
      policy,
      'default: allow\nrules:\n  - { tools: [oracle], agents: [fortune-teller], decision: ask, reason: omens are reviewed }\n',
    );
    const { code, out, err } = await backtest(ledger, '--policy', policy, '--json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(out) as { judged: number; groups: unknown[] };
    expect(result.judged).toBe(decided.length);
    expect(result.groups).toEqual([{ kind: 'new ask', layer: 'stricter', rule: 0, seqs: teller }]);

    // another agent's rule changes none of them
    await writeFile(
      policy,
      'default: allow\nrules:\n  - { tools: [oracle], agents: [trespasser], decision: deny }\n',
    );
    const other = JSON.parse((await backtest(ledger, '--policy', policy, '--json')).out) as {
      changes: unknown[];
    };
    expect(other.changes).toEqual([]);
  });
});
