import { parseArgs } from 'node:util';
import { verifyRecordProof } from '@toolgate/ledger/trust';
import type { CliIo } from './main.js';
import { shownWord } from './quote.js';
import { failure, readText, readVerifierKeys, signedBy, UsageProblem, usageFailure } from './trust-io.js';

/** The help of `toolgate-ledger verify-proof`. */
export const verifyProofUsage = `usage: toolgate-ledger verify-proof PROOF --checkpoint FILE --pub KEY [--pub KEY …]

Checks an inclusion proof from \`toolgate-ledger prove\` with nothing but the proof (which holds the
record), the signed checkpoint and the log's public key: no ledger needed. Add a witness's public key
to check its cosignature too.

example:
  toolgate-ledger verify-proof seq-41.proof.json --checkpoint run.checkpoint --pub log.pub

exit codes: 0 the record is in the ledger the checkpoint commits to, 1 it is not (or the checkpoint
does not verify), 2 usage error
`;

/** Runs `toolgate-ledger verify-proof`. */
export async function verifyProofCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        checkpoint: { type: 'string' },
        pub: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(verifyProofUsage);
      return 0;
    }
    const [proofPath, ...extra] = positionals;
    if (!proofPath)
      throw new UsageProblem('"verify-proof" needs the PROOF file (from `toolgate-ledger prove`)');
    if (extra.length > 0) throw new UsageProblem(`unexpected arguments: ${extra.join(' ')}`);
    if (!values.checkpoint) throw new UsageProblem('"verify-proof" needs --checkpoint FILE');
    if (!values.pub?.length)
      throw new UsageProblem('"verify-proof" needs the log\'s public key: --pub KEY.pub');
    const result = verifyRecordProof({
      proof: readText(proofPath, 'the proof'),
      checkpoint: readText(values.checkpoint, 'the checkpoint'),
      keys: readVerifierKeys(values.pub),
    });
    if (!result.ok || !result.proven) {
      io.stderr.write(`${proofPath}: does not verify: ${result.ok ? 'no proof' : result.reason}\n`);
      return 1;
    }
    const { seq, checkpoint, signatures } = result.proven;
    const record = JSON.parse(
      (JSON.parse(readText(proofPath, 'the proof')) as { record: string }).record,
    ) as {
      kind: string;
      runId: string;
    };
    io.stdout.write(
      `${proofPath}: ok, the record at seq ${seq} (${shownWord(record.kind)} of run ${shownWord(record.runId)}) ` +
        `is in the ${checkpoint.size} records of ${shownWord(checkpoint.origin)} (signed by ${signedBy(signatures)})\n`,
    );
    return 0;
  } catch (error) {
    if (
      error instanceof UsageProblem ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      return usageFailure(io, 'verify-proof', (error as Error).message, verifyProofUsage);
    }
    return failure(io, 'verify-proof', error);
  }
}
