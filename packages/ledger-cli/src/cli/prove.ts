import { parseArgs } from 'node:util';
import { ToolgateError } from '@toolgate/core';
import { recordLeaf, recordLine } from '@toolgate/ledger';
import {
  consistencyProof,
  inclusionProof,
  type RecordProof,
  recordProofFormat,
  rootOf,
} from '@toolgate/ledger/trust';
import type { CliIo } from './main.js';
import {
  failure,
  ledgerRecords,
  readCheckpoint,
  shownLedger,
  UsageProblem,
  usageFailure,
  wholeArgument,
} from './trust-io.js';

/** The help of `toolgate-ledger prove`. */
export const proveUsage = `usage: toolgate-ledger prove LEDGER SEQ --checkpoint FILE [--pub KEY]
       toolgate-ledger prove LEDGER --from SIZE --checkpoint FILE [--pub KEY]

The first form prints an inclusion proof (JSON) that the record at SEQ is in the ledger the checkpoint
commits to: the record itself, its place and the Merkle hashes. Hand it over with the checkpoint;
\`toolgate-ledger verify-proof\` checks it with nothing else but the log's public key.

The second form prints a consistency proof from the tree of SIZE records to the checkpoint, as the
C2SP tlog-witness add-checkpoint request (old SIZE, the hashes, a blank line, the checkpoint), which
\`toolgate-ledger witness\` takes.

  --checkpoint FILE   the signed checkpoint to prove against (the ledger must still match it)
  --pub KEY           check the checkpoint's signature first (KEY.pub from keygen, or its text)

example:
  toolgate-ledger prove run.jsonl 41 --checkpoint run.checkpoint > seq-41.proof.json
  toolgate-ledger prove run.jsonl --from 40 --checkpoint new.checkpoint > witness.request

exit codes: 0 printed, 1 the ledger does not match the checkpoint, 2 usage error, 3 cannot read
`;

/** Runs `toolgate-ledger prove`. */
export async function proveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        checkpoint: { type: 'string' },
        pub: { type: 'string', multiple: true },
        from: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(proveUsage);
      return 0;
    }
    const [ledger, seqText, ...extra] = positionals;
    if (!ledger) throw new UsageProblem('"prove" needs a LEDGER');
    if (extra.length > 0) throw new UsageProblem(`unexpected arguments: ${extra.join(' ')}`);
    if ((seqText === undefined) === (values.from === undefined)) {
      throw new UsageProblem(
        'give the SEQ of a record, or --from SIZE for a consistency proof (one of them)',
      );
    }
    if (!values.checkpoint)
      throw new UsageProblem('"prove" needs --checkpoint FILE (from `toolgate-ledger checkpoint`)');
    const { checkpoint, note } = readCheckpoint(values.checkpoint, values.pub);
    const number = wholeArgument(
      seqText ?? (values.from as string),
      seqText === undefined ? '--from' : 'SEQ',
    );
    const wanted = seqText === undefined ? undefined : number;
    if (wanted !== undefined && wanted >= checkpoint.size) {
      throw new UsageProblem(
        `seq ${wanted} is past the checkpoint, which covers seq 0 to ${checkpoint.size - 1}: sign a newer checkpoint first`,
      );
    }
    if (wanted === undefined && number > checkpoint.size) {
      throw new UsageProblem(`--from ${number} is past the checkpoint's ${checkpoint.size} records`);
    }
    const leaves: Uint8Array[] = [];
    let record: string | undefined;
    for await (const event of await ledgerRecords(ledger)) {
      if (event.seq >= checkpoint.size) break;
      leaves.push(recordLeaf(event));
      if (event.seq === wanted) record = recordLine(event);
    }
    const shown = shownLedger(ledger);
    if (leaves.length < checkpoint.size || Buffer.compare(rootOf(leaves), checkpoint.root) !== 0) {
      throw new ToolgateError(
        'LEDGER_CORRUPT',
        `${shown} does not hold what ${values.checkpoint} committed to (${checkpoint.size} records): ` +
          'no proof can be made against it; run `toolgate-ledger verify` with the checkpoint to see why',
      );
    }
    if (wanted !== undefined) {
      const proof: RecordProof = {
        format: recordProofFormat,
        seq: wanted,
        treeSize: checkpoint.size,
        record: record as string,
        hashes: inclusionProof(leaves, wanted, checkpoint.size).map(base64),
      };
      io.stdout.write(`${JSON.stringify(proof, null, 2)}\n`);
      return 0;
    }
    const hashes = number === 0 ? [] : consistencyProof(leaves, number, checkpoint.size).map(base64);
    io.stdout.write(`old ${number}\n${hashes.map((hash) => `${hash}\n`).join('')}\n${note}`);
    return 0;
  } catch (error) {
    if (
      error instanceof UsageProblem ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      return usageFailure(io, 'prove', (error as Error).message, proveUsage);
    }
    return failure(io, 'prove', error);
  }
}

function base64(hash: Uint8Array): string {
  return Buffer.from(hash).toString('base64');
}
