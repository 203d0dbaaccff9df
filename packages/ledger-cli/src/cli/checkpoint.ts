import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatCheckpoint, rootOf, signNote } from '@toolgate/ledger/trust';
import type { CliIo } from './main.js';
import { failure, ledgerLeaves, readSignerKey, shownLedger, UsageProblem, usageFailure } from './trust-io.js';

/** The help of `toolgate-ledger checkpoint`. */
export const checkpointUsage = `usage: toolgate-ledger checkpoint LEDGER --key KEY [--origin ORIGIN] [--out FILE]

Verifies the ledger's hash chain, takes the RFC 9162 Merkle root of all its records and signs it as a
C2SP checkpoint (origin, size, root hash) with the signer key KEY (from \`toolgate-ledger keygen\`).
Publish the checkpoint, or hand it to a witness: a ledger rewritten or cut afterwards no longer
matches it (\`toolgate-ledger verify LEDGER --checkpoint FILE --pub KEY.pub\`).

  --origin ORIGIN   the log's name in the checkpoint (default: the key's name)
  --out FILE        write it there (default: standard output)

example:
  toolgate-ledger checkpoint run.jsonl --key log.key --out run.checkpoint

exit codes: 0 signed, 1 the ledger failed verification, 2 usage error, 3 cannot read the ledger
`;

/** Runs `toolgate-ledger checkpoint`. */
export async function checkpointCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        key: { type: 'string' },
        origin: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(checkpointUsage);
      return 0;
    }
    const [ledger, ...extra] = positionals;
    if (!ledger) throw new UsageProblem('"checkpoint" needs a LEDGER');
    if (extra.length > 0) throw new UsageProblem(`unexpected arguments: ${extra.join(' ')}`);
    if (!values.key)
      throw new UsageProblem('"checkpoint" needs --key KEY (make one with `toolgate-ledger keygen`)');
    const key = readSignerKey(values.key);
    if (key.kind !== 'log') {
      throw new UsageProblem(
        `${values.key} is a witness key; a checkpoint is signed with a log key (keygen without --witness)`,
      );
    }
    const origin = values.origin ?? key.name;
    if (origin.length === 0 || origin.includes('\n'))
      throw new UsageProblem('--origin must be one non-empty line');
    const leaves = await ledgerLeaves(ledger);
    const note = signNote(
      formatCheckpoint({ origin, size: leaves.length, root: rootOf(leaves), extensions: [] }),
      key,
    );
    if (values.out) {
      writeFileSync(values.out, note);
      io.stderr.write(
        `${shownLedger(ledger)}: checkpoint of ${leaves.length} records signed by "${key.name}" → ${values.out}\n`,
      );
    } else io.stdout.write(note);
    return 0;
  } catch (error) {
    if (
      error instanceof UsageProblem ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      return usageFailure(io, 'checkpoint', (error as Error).message, checkpointUsage);
    }
    return failure(io, 'checkpoint', error);
  }
}
