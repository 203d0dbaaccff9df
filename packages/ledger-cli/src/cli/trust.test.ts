import { readFileSync, writeFileSync } from 'node:fs';
import { FileStore, steppingClock } from '@toolgate/ledger';
import { temporaryFiles } from '@toolgate/ledger/testing';
import { verifyRecordProof } from '@toolgate/ledger/trust';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

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

/** Appends `count` calls' records to a ledger file; `tag` changes what they hold. */
async function appendRecords(path: string, from: number, count: number, tag = 'real') {
  const store = await FileStore.open(path, { clock: steppingClock() });
  for (let index = from; index < from + count; index++) {
    await store.append({ runId: 'run-1', kind: 'tool.called', actor: 'teller', payload: { index, tag } });
  }
  await store.close();
}

async function keys() {
  const log = file('log');
  const witness = file('w1');
  expect((await run('keygen', 'example.com/agents', '--out', log)).code).toBe(0);
  expect((await run('keygen', 'witness.example.com/w1', '--out', witness, '--witness')).code).toBe(0);
  return { log, witness };
}

describe('toolgate-ledger: checkpoints, proofs and witnesses', () => {
  it('signs a checkpoint the ledger verifies against, and catches a rewrite and a cut tail with it', async () => {
    const { log } = await keys();
    const ledger = file('run.jsonl');
    await appendRecords(ledger, 0, 6);
    const checkpoint = file('monday.checkpoint');
    expect(await run('checkpoint', ledger, '--key', `${log}.key`, '--out', checkpoint)).toMatchObject({
      code: 0,
    });
    expect(readFileSync(checkpoint, 'utf8')).toMatch(
      /^example\.com\/agents\n6\n[A-Za-z0-9+/]{43}=\n\n— example\.com\/agents /,
    );

    await appendRecords(ledger, 6, 3);
    const grown = await run('verify', ledger, '--checkpoint', checkpoint, '--pub', `${log}.pub`);
    expect(grown).toMatchObject({ code: 0 });
    expect(grown.out).toContain('holds; the ledger extends it to 9 records');

    // Whoever runs the ledger rewrites it whole: every record and every hash; its chain verifies.
    const rewritten = file('rewritten.jsonl');
    await appendRecords(rewritten, 0, 9, 'forged');
    expect((await run('verify', rewritten)).code).toBe(0);
    const caught = await run('verify', rewritten, '--checkpoint', checkpoint, '--pub', `${log}.pub`);
    expect(caught.code).toBe(1);
    expect(caught.err).toContain('its first 6 records are not the ones checkpoint');
    expect(caught.err).toContain('the ledger was rewritten after the checkpoint was signed');

    // A cut tail: the first 4 records, intact, verify as a chain but not against the checkpoint.
    const cut = file('cut.jsonl');
    writeFileSync(cut, `${readFileSync(ledger, 'utf8').split('\n').slice(0, 4).join('\n')}\n`);
    expect((await run('verify', cut)).code).toBe(0);
    const short = await run('verify', cut, '--checkpoint', checkpoint, '--pub', `${log}.pub`);
    expect(short.code).toBe(1);
    expect(short.err).toContain('holds 4 records, but checkpoint');
    expect(short.err).toContain('records were cut from its tail');
  });

  it('refuses a checkpoint signed by another key, or edited after it was signed', async () => {
    const { log } = await keys();
    const other = file('other');
    await run('keygen', 'example.com/agents', '--out', other);
    const ledger = file('run.jsonl');
    await appendRecords(ledger, 0, 3);
    const checkpoint = file('run.checkpoint');
    await run('checkpoint', ledger, '--key', `${other}.key`, '--out', checkpoint);
    const stranger = await run('verify', ledger, '--checkpoint', checkpoint, '--pub', `${log}.pub`);
    expect(stranger).toMatchObject({
      code: 1,
      err: expect.stringContaining('carries no signature by "example.com/agents"'),
    });
    await run('checkpoint', ledger, '--key', `${log}.key`, '--out', checkpoint);
    writeFileSync(checkpoint, readFileSync(checkpoint, 'utf8').replace('\n3\n', '\n2\n'));
    const edited = await run('verify', ledger, '--checkpoint', checkpoint, '--pub', `${log}.pub`);
    expect(edited).toMatchObject({ code: 1, err: expect.stringContaining('does not verify') });
  });

  it('proves one record against a checkpoint, checked by verify-proof and by the standalone function', async () => {
    const { log } = await keys();
    const ledger = file('run.jsonl');
    await appendRecords(ledger, 0, 11);
    const checkpoint = file('run.checkpoint');
    await run('checkpoint', ledger, '--key', `${log}.key`, '--out', checkpoint);
    const proved = await run('prove', ledger, '7', '--checkpoint', checkpoint, '--pub', `${log}.pub`);
    expect(proved.code).toBe(0);
    const proofFile = file('seq-7.proof.json');
    writeFileSync(proofFile, proved.out);
    const checked = await run('verify-proof', proofFile, '--checkpoint', checkpoint, '--pub', `${log}.pub`);
    expect(checked).toMatchObject({ code: 0 });
    expect(checked.out).toContain(
      'ok, the record at seq 7 (tool.called of run run-1) is in the 11 records of example.com/agents',
    );

    const standalone = verifyRecordProof({
      proof: proved.out,
      checkpoint: readFileSync(checkpoint, 'utf8'),
      keys: [readFileSync(`${log}.pub`, 'utf8').trim()],
    });
    expect(standalone).toMatchObject({ ok: true, proven: { seq: 7, checkpoint: { size: 11 } } });

    // The record edited inside the proof (a refused call shown as allowed, say) no longer verifies.
    const proof = JSON.parse(proved.out) as { record: string };
    writeFileSync(
      proofFile,
      JSON.stringify({ ...proof, record: proof.record.replace('"index":7', '"index":70') }),
    );
    const forged = await run('verify-proof', proofFile, '--checkpoint', checkpoint, '--pub', `${log}.pub`);
    expect(forged).toMatchObject({
      code: 1,
      err: expect.stringContaining('does not lead from leaf 7 to the root'),
    });
  });

  it('witnesses a checkpoint that extends the last one it cosigned, and refuses a rewritten one', async () => {
    const { log, witness } = await keys();
    const state = file('w1.state');
    const ledger = file('run.jsonl');
    await appendRecords(ledger, 0, 5);
    const first = file('first.checkpoint');
    await run('checkpoint', ledger, '--key', `${log}.key`, '--out', first);
    const firstRequest = file('first.request');
    writeFileSync(firstRequest, (await run('prove', ledger, '--from', '0', '--checkpoint', first)).out);
    const witnessArgs = ['--key', `${witness}.key`, '--log-pub', `${log}.pub`, '--state', state];
    const cosigned = await run('witness', firstRequest, ...witnessArgs);
    expect(cosigned.code).toBe(0);
    const cosignedFile = file('first.cosigned');
    writeFileSync(cosignedFile, cosigned.out);
    const both = await run(
      'verify',
      ledger,
      '--checkpoint',
      cosignedFile,
      '--pub',
      `${log}.pub`,
      '--pub',
      `${witness}.pub`,
    );
    expect(both).toMatchObject({
      code: 0,
      out: expect.stringContaining(', cosigned by "witness.example.com/w1" at '),
    });

    await appendRecords(ledger, 5, 4);
    const second = file('second.checkpoint');
    await run('checkpoint', ledger, '--key', `${log}.key`, '--out', second);
    const secondRequest = file('second.request');
    writeFileSync(secondRequest, (await run('prove', ledger, '--from', '5', '--checkpoint', second)).out);
    expect(readFileSync(secondRequest, 'utf8')).toMatch(
      /^old 5\n([A-Za-z0-9+/]{43}=\n)+\nexample\.com\/agents\n9\n/,
    );
    expect((await run('witness', secondRequest, ...witnessArgs)).code).toBe(0);

    // The operator rewrites the ledger and signs it with the log key: the witness cannot be fooled.
    const rewritten = file('rewritten.jsonl');
    await appendRecords(rewritten, 0, 12, 'forged');
    const forged = file('forged.checkpoint');
    await run('checkpoint', rewritten, '--key', `${log}.key`, '--out', forged);
    const forgedRequest = file('forged.request');
    writeFileSync(forgedRequest, (await run('prove', rewritten, '--from', '9', '--checkpoint', forged)).out);
    const refused = await run('witness', forgedRequest, ...witnessArgs);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      'refused to cosign: the checkpoint does not extend the 9 records last cosigned',
    );
    // Asking from an older size than the witness holds is refused too, naming the size to ask from.
    const stale = await run('witness', firstRequest, ...witnessArgs);
    expect(stale).toMatchObject({ code: 1, err: expect.stringContaining('last cosigned 9 records') });
    expect(JSON.parse(readFileSync(state, 'utf8')).heads['example.com/agents'].size).toBe(9);
  });

  it('names the missing option and exits 2 on a usage error', async () => {
    expect(await run('checkpoint', 'x.jsonl')).toMatchObject({
      code: 2,
      err: expect.stringContaining('needs --key KEY'),
    });
    expect(await run('prove', 'x.jsonl', '--checkpoint', 'c')).toMatchObject({
      code: 2,
      err: expect.stringContaining('give the SEQ of a record, or --from SIZE'),
    });
    expect(await run('keygen', 'bad name', '--out', file('k'))).toMatchObject({
      code: 2,
      err: expect.stringContaining('holds a space or a plus sign'),
    });
  });
});
