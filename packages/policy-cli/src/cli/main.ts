import { ToolgateError } from '@toolgate/core';
import { parseCommandLine, usageMessage } from '@toolgate/core/command-line';
import { packageVersion } from '../package-version.js';
import { checkCommand } from './check.js';
import { explainCommand } from './explain.js';

/** Where the command writes. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** Exit codes: 0 fine, 1 the policy is refused or has findings, 2 a usage error, 3 a file cannot be read. */
export const exitCodes = { ok: 0, refused: 1, usage: 2, unavailable: 3 } as const;

/** The help of `toolgate`. */
export const usage = `usage: toolgate policy <check|explain> FILE… [options]

A policy is one or more files or directories, most authoritative first: each YAML or JSON file is a
layer named after it (managed.yaml is layer "managed"; NAME=PATH names it), each directory a layer
per file in name order ("DIRECTORY/FILE"). No layer below can loosen a deny or an ask above it.

commands:
  policy check FILE…          load the policy, check every rule's examples, and list rules that
                              can never decide (shadowed: an earlier rule with the same decision
                              judges every call they could; unreachable: a stricter rule does)
  policy explain FILE… --call JSON
                              the verdict on one call, its layer and rule, and every rule that
                              judged each thing the call touches
  --version                   print the version

the call, for explain (JSON): {"tool": NAME, "parameters": {…}, "agent": NAME, "agentPath": "lead/critic",
  "client": NAME, "subject": {"paths": […], "commands": [["npm", "test"]], "hosts": […]}}
  only "tool" is required; without "subject", rules on paths, commands or hosts judge it as a call
  whose subject is unknown (a deny applies, an allow or ask does not)

examples:
  toolgate policy check managed.yaml toolgate.policy.yaml
  toolgate policy explain policy.yaml --call '{"tool":"shell","subject":{"commands":[["rm","-rf","build"]]}}'

exit codes: 0 fine, 1 the policy is refused (a failing example, a bad rule) or check found rules
that never decide, 2 usage error, 3 a file cannot be read
`;

/** Runs `toolgate` with its arguments; resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [group, command, ...rest] = argv;
  if (group === 'policy' && command === 'check') return checkCommand(rest, io);
  if (group === 'policy' && command === 'explain') return explainCommand(rest, io);
  let values: { help?: boolean; version?: boolean };
  try {
    ({ values } = parseCommandLine(argv, {
      options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } },
      positionals: true,
    }));
  } catch (error) {
    return usageFailure(io, (error as Error).message);
  }
  if (values.help) {
    io.stdout.write(usage);
    return exitCodes.ok;
  }
  if (values.version) {
    io.stdout.write(`toolgate ${packageVersion}\n`);
    return exitCodes.ok;
  }
  const problem =
    group === undefined
      ? 'no command given'
      : group !== 'policy'
        ? `unknown command "${group}"`
        : command === undefined
          ? '"policy" needs check or explain'
          : `unknown command "policy ${command}"`;
  return usageFailure(io, problem);
}

/** Writes a usage problem and the help; exit 2. */
export function usageFailure(io: CliIo, problem: string): number {
  io.stderr.write(usageMessage({ command: 'toolgate', problem, usage }));
  return exitCodes.usage;
}

/** Writes a failure to load the policy in one line; exit 3 for a file that cannot be read, else 1. */
export function loadFailure(io: CliIo, command: string, error: unknown): number {
  io.stderr.write(`toolgate policy ${command}: ${(error as Error).message ?? String(error)}\n`);
  return ToolgateError.is(error) && error.code === 'NOT_FOUND' ? exitCodes.unavailable : exitCodes.refused;
}
