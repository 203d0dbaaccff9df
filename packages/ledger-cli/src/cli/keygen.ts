import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateNoteKeys } from '@toolgate/ledger/trust';
import type { CliIo } from './main.js';
import { failure, UsageProblem, usageFailure } from './trust-io.js';

/** The help of `toolgate-ledger keygen`. */
export const keygenUsage = `usage: toolgate-ledger keygen NAME --out PREFIX [--witness]

Makes an Ed25519 key pair for signing checkpoints (or, with --witness, for cosigning them), in the
C2SP signed-note format: PREFIX.key (the signer key, secret, written with mode 0600) and PREFIX.pub
(the verifier key, to publish). NAME is a schema-less URL with no spaces or plus signs.

example:
  toolgate-ledger keygen example.com/agents --out log      # log.key, log.pub
  toolgate-ledger keygen witness.example.com/w1 --out w1 --witness

exit codes: 0 written, 2 usage error, 3 cannot write the files
`;

/** Runs `toolgate-ledger keygen`. */
export async function keygenCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        witness: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(keygenUsage);
      return 0;
    }
    const [name, ...extra] = positionals;
    if (!name) throw new UsageProblem('"keygen" needs the key NAME (e.g. example.com/agents)');
    if (extra.length > 0) throw new UsageProblem(`unexpected arguments: ${extra.join(' ')}`);
    if (!values.out)
      throw new UsageProblem('"keygen" needs --out PREFIX (PREFIX.key and PREFIX.pub are written)');
    let keys: ReturnType<typeof generateNoteKeys>;
    try {
      keys = generateNoteKeys(name, values.witness ? 'witness' : 'log');
    } catch (error) {
      throw new UsageProblem((error as Error).message);
    }
    try {
      writeFileSync(`${values.out}.key`, `${keys.signerKey}\n`, { mode: 0o600, flag: 'wx' });
      writeFileSync(`${values.out}.pub`, `${keys.verifierKey}\n`, { flag: 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(
        code === 'EEXIST'
          ? `${values.out}.key or ${values.out}.pub exists already; keygen never overwrites a key: pick another --out`
          : `cannot write ${values.out}.key / .pub: ${code ?? (error as Error).message}`,
      );
    }
    io.stdout.write(`${values.out}.key (secret)\n${values.out}.pub ${keys.verifierKey}\n`);
    return 0;
  } catch (error) {
    if (
      error instanceof UsageProblem ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      return usageFailure(io, 'keygen', (error as Error).message, keygenUsage);
    }
    return failure(io, 'keygen', error);
  }
}
