import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ToolgateError } from '@toolgate/core';
import { cosignatureLine, verifyConsistency } from '@toolgate/ledger/trust';
import type { CliIo } from './main.js';
import {
  failure,
  openCheckpointNote,
  readSignerKey,
  readText,
  readVerifierKeys,
  UsageProblem,
  usageFailure,
} from './trust-io.js';
import { WitnessState } from './witness-state.js';

/** The help of `toolgate-ledger witness`. */
export const witnessUsage = `usage: toolgate-ledger witness REQUEST --key WITNESS.key --log-pub LOG.pub --state FILE [--out FILE]

Acts as a C2SP tlog-witness: REQUEST is an add-checkpoint body (\`toolgate-ledger prove LEDGER --from
SIZE --checkpoint NEW\` prints one). The witness checks the log's signature, that SIZE is the size it
last cosigned for that origin (kept in --state), and the consistency proof from that tree to the new
one; then it records the new head and prints the checkpoint with its cosignature added. A log that
rewrote or cut its ledger cannot get a cosignature: it cannot prove the new tree extends the old.

  --key FILE       the witness's signer key (keygen --witness)
  --log-pub KEY    the log's public key (its origin's checkpoints are the ones accepted)
  --state FILE     where the witness keeps the last head it cosigned per origin (created if missing)
  --out FILE       write the cosigned checkpoint there (default: standard output)

example:
  toolgate-ledger prove run.jsonl --from 40 --checkpoint new.checkpoint > request
  toolgate-ledger witness request --key w1.key --log-pub log.pub --state w1.state > new.cosigned

exit codes: 0 cosigned, 1 refused (bad signature, wrong old size, inconsistent), 2 usage error
`;

/** Runs `toolgate-ledger witness`. */
export async function witnessCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        key: { type: 'string' },
        'log-pub': { type: 'string', multiple: true },
        state: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(witnessUsage);
      return 0;
    }
    const [requestPath, ...extra] = positionals;
    if (!requestPath)
      throw new UsageProblem('"witness" needs the REQUEST file (from `toolgate-ledger prove --from`)');
    if (extra.length > 0) throw new UsageProblem(`unexpected arguments: ${extra.join(' ')}`);
    if (!values.key || !values['log-pub']?.length || !values.state) {
      throw new UsageProblem('"witness" needs --key WITNESS.key, --log-pub LOG.pub and --state FILE');
    }
    const key = readSignerKey(values.key);
    if (key.kind !== 'witness')
      throw new UsageProblem(
        `${values.key} is a log key; a witness cosigns with a key from keygen --witness`,
      );
    const logKeys = readVerifierKeys(values['log-pub']).filter((logKey) => logKey.kind === 'log');
    const request = parseRequest(readText(requestPath, 'the request'), requestPath);
    const opened = openCheckpointNote(request.checkpoint, `the checkpoint in ${requestPath}`, logKeys);
    const { checkpoint } = opened;
    const text = opened.note.slice(0, opened.note.lastIndexOf('\n\n') + 1);
    const note = await new WitnessState(values.state).update((heads) => {
      const last = heads[checkpoint.origin] ?? { size: 0, root: '' };
      if (request.oldSize > checkpoint.size) {
        refuse(`old size ${request.oldSize} is past the checkpoint's ${checkpoint.size} records`);
      }
      if (request.oldSize !== last.size) {
        refuse(
          `the witness last cosigned ${last.size} records of "${checkpoint.origin}", not ${request.oldSize}: ` +
            `ask again with a proof --from ${last.size}`,
        );
      }
      if (request.oldSize === 0 && request.proof.length > 0) refuse('a request from size 0 carries no proof');
      if (request.oldSize > 0) {
        const result = verifyConsistency({
          oldSize: request.oldSize,
          oldRoot: new Uint8Array(Buffer.from(last.root, 'base64')),
          newSize: checkpoint.size,
          newRoot: checkpoint.root,
          proof: request.proof,
        });
        if (!result.ok)
          refuse(`the checkpoint does not extend the ${last.size} records last cosigned: ${result.reason}`);
      }
      const root = Buffer.from(checkpoint.root).toString('base64');
      const line = cosignatureLine(text, key, Math.floor(Date.now() / 1000));
      return {
        heads: { ...heads, [checkpoint.origin]: { size: checkpoint.size, root } },
        result: opened.note + line,
      };
    });
    if (values.out) writeFileSync(values.out, note);
    else io.stdout.write(note);
    io.stderr.write(`cosigned "${checkpoint.origin}" at ${checkpoint.size} records as "${key.name}"\n`);
    return 0;
  } catch (error) {
    if (
      error instanceof UsageProblem ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      return usageFailure(io, 'witness', (error as Error).message, witnessUsage);
    }
    return failure(io, 'witness', error);
  }
}

function refuse(reason: string): never {
  throw new ToolgateError('LEDGER_CORRUPT', `refused to cosign: ${reason}`);
}

function parseRequest(
  text: string,
  path: string,
): { oldSize: number; proof: Uint8Array[]; checkpoint: string } {
  const blank = text.indexOf('\n\n');
  const head = blank < 0 ? [] : text.slice(0, blank).split('\n');
  const old = /^old (0|[1-9][0-9]*)$/.exec(head[0] ?? '');
  if (!old)
    throw new UsageProblem(
      `${path} is not an add-checkpoint request: it starts with "old SIZE", then hashes, a blank line, the checkpoint`,
    );
  const proof = head.slice(1).map((line) => {
    const bytes = Buffer.from(line, 'base64');
    if (bytes.length !== 32 || bytes.toString('base64') !== line)
      throw new UsageProblem(`${path}: "${line}" is not a base64 hash`);
    return new Uint8Array(bytes);
  });
  if (proof.length > 63) throw new UsageProblem(`${path}: a request carries at most 63 proof hashes`);
  return { oldSize: Number(old[1]), proof, checkpoint: text.slice(blank + 2) };
}
