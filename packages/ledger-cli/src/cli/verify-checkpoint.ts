import { parseArgs } from 'node:util';
import { ToolgateError } from '@toolgate/core';
import { rootOf } from '@toolgate/ledger/trust';
import type { CliIo } from './main.js';
import {
  failure,
  ledgerLeaves,
  type OpenedCheckpoint,
  openCheckpoint,
  readVerifierKeys,
  shownLedger,
  signedBy,
  UsageProblem,
  usageFailure,
} from './trust-io.js';

/** The help of `toolgate-ledger verify --checkpoint`. */
export const verifyCheckpointUsage = `usage: toolgate-ledger verify LEDGER --checkpoint FILE [--checkpoint FILE …] --pub KEY [--pub KEY …]

Verifies the hash chain, then that the ledger holds exactly what each signed checkpoint committed to:
its first SIZE records have the checkpoint's Merkle root. A ledger rewritten after the checkpoint was
signed, or cut below it, fails; a ledger that grew since passes (it extends the checkpoint). Given
several checkpoints, each newer one is checked to extend the older ones.

  --checkpoint FILE   a checkpoint from \`toolgate-ledger checkpoint\` (or cosigned by \`witness\`)
  --pub KEY           the log's public key (KEY.pub from keygen, or its text); add a witness's to
                      check its cosignature too (a cosignature that does not verify fails)

example:
  toolgate-ledger verify run.jsonl --checkpoint monday.checkpoint --pub log.pub

exit codes: 0 sound, 1 the ledger or a checkpoint failed, 2 usage error, 3 cannot read the ledger
`;

/** Whether a ledger's leaves hold what a checkpoint committed to, in words naming the checkpoint and its signers. */
export function checkpointVerdict(
  leaves: readonly Uint8Array[],
  opened: OpenedCheckpoint,
): { holds: boolean; text: string } {
  const { path, checkpoint, signatures } = opened;
  const committed = `checkpoint ${path} (${checkpoint.size} records, signed by ${signedBy(signatures)})`;
  if (leaves.length < checkpoint.size) {
    return {
      holds: false,
      text:
        `holds ${leaves.length} records, but ${committed} committed to ${checkpoint.size}: ` +
        'records were cut from its tail, or the ledger was replaced',
    };
  }
  if (Buffer.compare(rootOf(leaves, 0, checkpoint.size), checkpoint.root) !== 0) {
    return {
      holds: false,
      text:
        `its first ${checkpoint.size} records are not the ones ${committed} committed to: ` +
        'the ledger was rewritten after the checkpoint was signed',
    };
  }
  const grown = leaves.length > checkpoint.size ? `; the ledger extends it to ${leaves.length} records` : '';
  return { holds: true, text: `${committed} holds${grown}` };
}

/** Runs `toolgate-ledger verify LEDGER --checkpoint …`. */
export async function verifyCheckpointCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        checkpoint: { type: 'string', multiple: true },
        pub: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(verifyCheckpointUsage);
      return 0;
    }
    const [ledger, ...extra] = positionals;
    if (!ledger) throw new UsageProblem('"verify" needs a LEDGER');
    if (extra.length > 0) throw new UsageProblem(`unexpected arguments: ${extra.join(' ')}`);
    if (!values.checkpoint?.length) throw new UsageProblem('give --checkpoint FILE');
    if (!values.pub?.length) throw new UsageProblem("--checkpoint needs the log's public key: --pub KEY.pub");
    const keys = readVerifierKeys(values.pub);
    const checkpoints = values.checkpoint
      .map((path) => openCheckpoint(path, keys))
      .sort((left, right) => left.checkpoint.size - right.checkpoint.size);
    const leaves = await ledgerLeaves(ledger);
    const shown = shownLedger(ledger);
    for (const opened of checkpoints) {
      const verdict = checkpointVerdict(leaves, opened);
      if (!verdict.holds) throw new ToolgateError('LEDGER_CORRUPT', `${shown}: ${verdict.text}`);
      io.stdout.write(`${shown}: ${verdict.text}\n`);
    }
    io.stdout.write(
      `${shown}: ok, ${leaves.length} records verified against ${checkpoints.length} checkpoint(s)\n`,
    );
    return 0;
  } catch (error) {
    if (
      error instanceof UsageProblem ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      return usageFailure(io, 'verify', (error as Error).message, verifyCheckpointUsage);
    }
    return failure(io, 'verify', error);
  }
}
