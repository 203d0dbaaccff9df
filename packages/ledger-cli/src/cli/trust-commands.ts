import { backtestCommand } from './backtest.js';
import { checkpointCommand } from './checkpoint.js';
import { keygenCommand } from './keygen.js';
import type { CliIo } from './main.js';
import { proveCommand } from './prove.js';
import { verifyCheckpointCommand } from './verify-checkpoint.js';
import { verifyDecisionsCommand } from './verify-decisions.js';
import { verifyProofCommand } from './verify-proof.js';
import { witnessCommand } from './witness.js';

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

/**
 * The command of the ledger's trust commands (keygen, checkpoint, prove, verify-proof, witness, and
 * verify with --checkpoint or --decisions) that `argv` calls, or undefined for one of the others.
 */
export function trustCommand(argv: readonly string[]): Command | undefined {
  const [name, ...rest] = argv;
  if (name === 'verify') {
    if (rest.includes('--decisions')) return verifyDecisionsCommand;
    return rest.some((argument) => argument === '--checkpoint' || argument.startsWith('--checkpoint='))
      ? verifyCheckpointCommand
      : undefined;
  }
  return name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined;
}

const commands: Record<string, Command> = {
  backtest: backtestCommand,
  keygen: keygenCommand,
  checkpoint: checkpointCommand,
  prove: proveCommand,
  'verify-proof': verifyProofCommand,
  witness: witnessCommand,
};
