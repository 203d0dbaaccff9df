import { readFileSync, writeFileSync } from 'node:fs';
import { steppingClock } from '@toolgate/ledger';
import { temporaryFiles } from '@toolgate/ledger/testing';
import { verifyRecordProof } from '@toolgate/ledger/trust';
import { PostgresStore } from '@toolgate/ledger-postgres';
import {
  freshLedgerName,
  postgresSkipReason,
  postgresUrl,
  requirePostgresInContinuousIntegration,
} from '@toolgate/ledger-postgres/testing';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

requirePostgresInContinuousIntegration(it);
const file = temporaryFiles();

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe.skipIf(postgresUrl === undefined)(
  `toolgate-ledger checkpoint, verify --checkpoint and prove on PostgreSQL (${postgresUrl ? 'a real server' : postgresSkipReason})`,
  () => {
    it('signs a checkpoint of a postgres:// ledger, verifies against it as it grows, and proves a record', async () => {
      const ledger = freshLedgerName('trust');
      const url = `${postgresUrl}${postgresUrl!.includes('?') ? '&' : '?'}ledger=${ledger}`;
      const store = await PostgresStore.open(url, { clock: steppingClock() });
      const append = async (from: number, count: number) => {
        for (let index = from; index < from + count; index++)
          await store.append({ runId: 'fleet', kind: 'tool.called', actor: 'gateway', payload: { index } });
      };
      await append(0, 5);
      const log = file('log');
      await run('keygen', 'example.com/fleet', '--out', log);
      const checkpoint = file('fleet.checkpoint');
      expect((await run('checkpoint', url, '--key', `${log}.key`, '--out', checkpoint)).code).toBe(0);
      expect(readFileSync(checkpoint, 'utf8')).toMatch(/^example\.com\/fleet\n5\n/);
      expect((await store.treeHead()).size).toBe(5);
      await append(5, 3);
      const verified = await run('verify', url, '--checkpoint', checkpoint, '--pub', `${log}.pub`);
      expect(verified).toMatchObject({
        code: 0,
        out: expect.stringContaining('the ledger extends it to 8 records'),
      });
      expect(verified.out).not.toContain('postgres@'); // the ledger is named without its user
      const proved = await run('prove', url, '3', '--checkpoint', checkpoint, '--pub', `${log}.pub`);
      expect(proved.code).toBe(0);
      writeFileSync(file('seq-3.proof.json'), proved.out);
      expect(
        verifyRecordProof({
          proof: proved.out,
          checkpoint: readFileSync(checkpoint, 'utf8'),
          keys: [readFileSync(`${log}.pub`, 'utf8')],
        }),
      ).toMatchObject({ ok: true, proven: { seq: 3 } });
      await store.close();
    });
  },
);
