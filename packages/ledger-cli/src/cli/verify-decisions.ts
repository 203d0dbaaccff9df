import { parseArgs } from 'node:util';
import { type PolicyDocument, parsePolicyText, RulePolicy } from '@toolgate/core';
import { verifyDecisions } from '@toolgate/ledger';
import type { CliIo } from './main.js';
import { shownWord } from './quote.js';
import { failure, ledgerRecords, readText, shownLedger, UsageProblem, usageFailure } from './trust-io.js';

/** The help of `toolgate-ledger verify --decisions`. */
export const verifyDecisionsUsage = `usage: toolgate-ledger verify LEDGER --decisions [--policy FILE …]

Verifies the hash chain, then re-judges every recorded policy decision: the policy each run recorded
at its start (a policy.recorded record: the document's digest, and the document unless it is handed
over with --policy) decides each recorded call again, and the recorded verdict and outcome must be
the ones it gives. A decision it cannot re-judge (no policy recorded, no subject recorded where a
rule on paths, commands or hosts could apply) fails too. Each failure names the seq and both verdicts.

  --policy FILE   a policy document (YAML or JSON) for runs that recorded only its digest

example:
  toolgate-ledger verify run.ledger.jsonl --decisions

exit codes: 0 every decision agrees, 1 a decision or the chain failed, 2 usage error, 3 cannot read
`;

/** Runs `toolgate-ledger verify LEDGER --decisions`. */
export async function verifyDecisionsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        decisions: { type: 'boolean' },
        policy: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(verifyDecisionsUsage);
      return 0;
    }
    const [ledger, ...extra] = positionals;
    if (!ledger) throw new UsageProblem('"verify" needs a LEDGER');
    if (extra.length > 0) throw new UsageProblem(`unexpected arguments: ${extra.join(' ')}`);
    const documents = (values.policy ?? []).map((path) => documentOf(path));
    const result = await verifyDecisions(await ledgerRecords(ledger), { documents });
    const shown = shownLedger(ledger);
    for (const fault of result.faults) {
      io.stderr.write(
        `${shown}: seq ${fault.seq} (call ${shownWord(fault.callId)}, tool ${shownWord(fault.tool)}): ${fault.reason}\n`,
      );
    }
    if (!result.ok) {
      io.stderr.write(`${shown}: ${result.faults.length} decision(s) fail, ${result.agreed} agree\n`);
      return 1;
    }
    io.stdout.write(`${shown}: ok, ${result.agreed} decisions re-judged by the recorded policy, all agree\n`);
    return 0;
  } catch (error) {
    if (
      error instanceof UsageProblem ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      return usageFailure(io, 'verify', (error as Error).message, verifyDecisionsUsage);
    }
    return failure(io, 'verify', error);
  }
}

function documentOf(path: string): PolicyDocument {
  let policy: ReturnType<typeof parsePolicyText>;
  try {
    policy = parsePolicyText(readText(path, 'the policy'), path);
  } catch (error) {
    if (error instanceof UsageProblem) throw error;
    throw new UsageProblem((error as Error).message);
  }
  if (!(policy instanceof RulePolicy)) throw new UsageProblem(`${path} is not a policy of rules`);
  return policy.document;
}
