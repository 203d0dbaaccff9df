import { parseArgs } from 'node:util';
import { type BacktestResult, backtestDecisions } from '@toolgate/ledger';
import { loadPolicyFiles, type PolicyFiles } from '@toolgate/policy-cli';
import type { CliIo } from './main.js';
import { shownWord } from './quote.js';
import { failure, ledgerRecords, shownLedger, UsageProblem, usageFailure } from './trust-io.js';

/** The help of `toolgate-ledger backtest`. */
export const backtestUsage = `usage: toolgate-ledger backtest LEDGER --policy FILE… [--json]

"Would this policy have fired?" Judges every recorded policy decision of the ledger again under
another policy — the recorded call's agent, tool and parameters, and the subject (paths, commands,
hosts), client and agent path the decision recorded — and prints what would change, grouped by the
rule that changes it, with the seqs of the policy.decided records:
  allowed → denied   a call that ran and would be refused
  denied → allowed   a call that was refused and would run
  new ask            a call that would now be put to an approver
It never runs a tool. A decision recorded before toolgate recorded subjects cannot be judged by a
rule on paths, commands or hosts: it is listed as not judged, never guessed.

  --policy FILE   the policy to judge by: a YAML or JSON file, or a directory of them; repeat it for
                  layers, most authoritative first (NAME=PATH names a layer)
  --json          the result as JSON, for machines

example:
  toolgate-ledger backtest run.ledger.jsonl --policy stricter.policy.yaml

exit codes: 0 judged (whatever would change), 1 some decisions could not be judged, 2 usage error,
3 cannot read the ledger or the policy
`;

/** Runs `toolgate-ledger backtest LEDGER --policy FILE…`. */
export async function backtestCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        policy: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(backtestUsage);
      return 0;
    }
    const [ledger, ...extra] = positionals;
    if (!ledger) throw new UsageProblem('"backtest" needs a LEDGER');
    if (extra.length > 0) throw new UsageProblem(`unexpected arguments: ${extra.join(' ')}`);
    if (!values.policy?.length)
      throw new UsageProblem('"backtest" needs --policy FILE, the policy to judge by');
    let loaded: PolicyFiles;
    try {
      loaded = loadPolicyFiles(values.policy);
    } catch (error) {
      io.stderr.write(`toolgate-ledger backtest: ${(error as Error).message}\n`);
      return 3;
    }
    const result = await backtestDecisions(await ledgerRecords(ledger), {
      policy: loaded.policy,
      document: loaded.policy.document,
    });
    const shown = shownLedger(ledger);
    if (values.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else io.stdout.write(described(shown, result));
    if (result.unjudged.length > 0 && result.judged === 0) {
      io.stderr.write(
        `${shown}: none of its ${result.unjudged.length} decisions could be judged: its records hold no ` +
          'subject (the ledger was written before toolgate recorded them), and the policy has rules on ' +
          'paths, commands or hosts for their tools. Backtest a ledger recorded by this version of toolgate, ' +
          'or a policy without such rules\n',
      );
    }
    return result.unjudged.length > 0 ? 1 : 0;
  } catch (error) {
    if (
      error instanceof UsageProblem ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      return usageFailure(io, 'backtest', (error as Error).message, backtestUsage);
    }
    return failure(io, 'backtest', error);
  }
}

function described(shown: string, result: BacktestResult): string {
  const lines = [
    `${shown}: ${result.judged} decisions judged again, ${result.changes.length} would change, ` +
      `${result.unchanged} would not${result.unjudged.length > 0 ? `, ${result.unjudged.length} could not be judged` : ''}`,
  ];
  for (const group of result.groups) {
    const by =
      group.rule === undefined
        ? 'the default'
        : `rule ${group.rule}${group.layer === undefined ? '' : ` of layer ${group.layer}`}`;
    lines.push(`${group.kind} by ${by}: seq ${group.seqs.join(', ')}`);
    for (const change of result.changes.filter((each) => group.seqs.includes(each.seq))) {
      lines.push(
        `  seq ${change.seq} ${shownWord(change.agent)} → ${shownWord(change.tool)} (call ${shownWord(change.callId)}): ` +
          `was ${change.was.verdict === 'ask' ? `ask → ${change.was.outcome}` : change.was.outcome}; ${change.now.reason}`,
      );
    }
  }
  for (const skipped of result.unjudged)
    lines.push(
      `not judged: seq ${skipped.seq} (call ${shownWord(skipped.callId)}, tool ${shownWord(skipped.tool)}): ${skipped.reason}`,
    );
  return `${lines.join('\n')}\n`;
}
