/**
 * The message a toolgate command writes to stderr for bad input, before it exits 2: one line
 * naming the command and the problem, then the usage when there is one to show.
 *
 * @param problem.command - the command's name (`toolgate-ledger`), which starts the line
 * @param problem.problem - what is wrong, in the command's words (`"verify" needs a ledger FILE`)
 * @param problem.usage - the usage text to show after it; left out, the line ends the message
 *
 * @example
 * process.stderr.write(usageMessage({ command: 'toolgate-ledger', problem: 'no command given', usage }));
 */
export function usageMessage(problem: { command: string; problem: string; usage?: string }): string {
  const { command, usage } = problem;
  return usage === undefined
    ? `${command}: ${problem.problem}\n`
    : `${command}: ${problem.problem}\n\n${usage}`;
}
