#!/usr/bin/env node
/**
 * `pnpm demo` — runs the oracle-grove scenario and prints the story as it happens.
 *
 *   --seed TEXT      the traveller's word (default: the scenario's)
 *   --turns N        how many turns (default: the scenario's)
 *   --trespass       add a tool-less agent that tries to call the oracle
 *   --ledger FILE    where to write the ledger (default .ledgers/oracle-grove.jsonl, replaced each run)
 *   --replay FILE    replay a recorded ledger with every tool switched off
 *   --json           print each event as one JSON line instead of the story
 *
 * MCP_ORACLE=1 (or MCP_SERVERS="…") runs the oracle over MCP stdio instead of in-process. A closed
 * stdout (`pnpm demo | head`) stops the run cleanly: the ledger is finished and released, exit 0.
 */
import { messageOf, ToolgateError } from '@toolgate/core';
import { parseCommandLine, usageMessage, wholeNumber } from '@toolgate/core/command-line';
import { runDemo } from './demo.js';
import { packageVersion } from './package-version.js';
import { painterFor, renderEvent, renderSummary } from './render.js';

const defaultLedger = '.ledgers/oracle-grove.jsonl';
const defaultReplayLedger = '.ledgers/oracle-grove.replay.jsonl';

const optionShapes = {
  seed: { type: 'string' },
  turns: { type: 'string' },
  trespass: { type: 'boolean', default: false },
  ledger: { type: 'string' },
  replay: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} as const;

/** Ends the run when stdout goes away (the reader of a pipe quit), instead of dying on EPIPE. */
const stopped = new AbortController();
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
    stopped.abort('its output was closed');
    return;
  }
  process.stderr.write(`oracle-grove: cannot write to stdout: ${error.message}\n`);
  stopped.abort(`stdout failed: ${error.message}`);
  process.exitCode = 1;
});

function print(text: string): void {
  if (!stopped.signal.aborted) process.stdout.write(text);
}

async function main(): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(process.argv.slice(2)).values;
  } catch (error) {
    throw new ToolgateError('INVALID_DEFINITION', `${(error as Error).message}; see --help`);
  }
  if (values.help) {
    print(usage);
    return 0;
  }
  if (values.version) {
    print(`oracle-grove ${packageVersion}\n`);
    return 0;
  }
  const turns =
    values.turns === undefined ? undefined : wholeNumber(values.turns, { option: '--turns', min: 1 });
  if (values.replay !== undefined) {
    const given = [
      ...(values.seed === undefined ? [] : ['--seed']),
      ...(values.turns === undefined ? [] : ['--turns']),
      ...(values.trespass ? ['--trespass'] : []),
    ];
    if (given.length > 0) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `--replay takes the seed, turns and cast from the recording; drop ${given.join(', ')}`,
      );
    }
  }
  const paint = painterFor(process.stdout);
  const ledger = values.ledger ?? (values.replay ? defaultReplayLedger : defaultLedger);
  const result = await runDemo({
    ...(values.seed === undefined ? {} : { seed: values.seed }),
    ...(turns === undefined ? {} : { turns }),
    trespass: values.trespass,
    ledger,
    overwrite: values.ledger === undefined,
    ...(values.replay === undefined ? {} : { replay: values.replay }),
    signal: stopped.signal,
    onEvent: (event) => {
      print(`${values.json ? JSON.stringify(event) : renderEvent(event, paint)}\n`);
    },
  });
  if (values.json || result.stopped) return 0;
  print(`${renderSummary(result.summary, result.ledger, result.head, paint)}\n`);
  print(`  tools  ${result.transport}\n`);
  if (result.identical !== undefined) {
    print(
      result.identical
        ? `  replay ${paint('green', 'byte-identical')} to ${values.replay}\n`
        : `  replay ${paint('red', 'differs')} from ${values.replay}\n`,
    );
    return result.identical ? 0 : 1;
  }
  return 0;
}

function parse(argv: readonly string[]) {
  return parseCommandLine(argv, { options: optionShapes });
}

const usage = `usage: oracle-grove [--seed TEXT] [--turns N] [--trespass] [--ledger FILE] [--replay FILE] [--json]

  --seed TEXT     the traveller's word (default: the scenario's)
  --turns N       how many turns, a whole number of at least 1 (default: the scenario's)
  --trespass      add a tool-less agent that tries to call the oracle
  --ledger FILE   the ledger to write; its directory must exist, and a file you name is never
                  replaced (default .ledgers/oracle-grove.jsonl, replaced each run)
  --replay FILE   replay a recorded ledger with every tool switched off; the seed, turns and cast
                  come from the recording, so --seed, --turns and --trespass are refused with it
  --json          one JSON event a line instead of the story
  --version       print the version

  MCP_ORACLE=1 (or true, yes; 0, false, no or empty for in-process) serves the oracle over MCP
  stdio; MCP_SERVERS="cmd args :: cmd args" names the servers instead.

examples:
  oracle-grove --seed fern --turns 5 --trespass
  oracle-grove --replay .ledgers/oracle-grove.jsonl

exit codes: 0 done (or stopped because stdout was closed), 1 a replay differs, 2 bad input or a failed run
`;

main().then(
  (code) => {
    process.exitCode ??= code;
  },
  (error: unknown) => {
    process.stderr.write(usageMessage({ command: 'oracle-grove', problem: messageOf(error) }));
    process.exitCode = 2;
  },
);
