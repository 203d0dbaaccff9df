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
 * MCP_ORACLE=1 (or MCP_SERVERS="…") runs the oracle over MCP stdio instead of in-process.
 */
import { parseArgs } from 'node:util';
import { messageOf } from '@toolgate/core';
import { runDemo } from './demo.js';
import { painterFor, renderEvent, renderSummary } from './render.js';

const defaultLedger = '.ledgers/oracle-grove.jsonl';
const defaultReplayLedger = '.ledgers/oracle-grove.replay.jsonl';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      turns: { type: 'string' },
      trespass: { type: 'boolean', default: false },
      ledger: { type: 'string' },
      replay: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const paint = painterFor(process.stdout);
  const turns = values.turns === undefined ? undefined : Number(values.turns);
  const ledger = values.ledger ?? (values.replay ? defaultReplayLedger : defaultLedger);
  const result = await runDemo({
    ...(values.seed === undefined ? {} : { seed: values.seed }),
    ...(turns === undefined ? {} : { turns }),
    trespass: values.trespass,
    ledger,
    overwrite: values.ledger === undefined,
    ...(values.replay === undefined ? {} : { replay: values.replay }),
    onEvent: (event) => {
      process.stdout.write(`${values.json ? JSON.stringify(event) : renderEvent(event, paint)}\n`);
    },
  });
  if (values.json) return 0;
  process.stdout.write(`${renderSummary(result.summary, result.ledger, result.head, paint)}\n`);
  process.stdout.write(`  tools  ${result.transport}\n`);
  if (result.identical !== undefined) {
    process.stdout.write(
      result.identical
        ? `  replay ${paint('green', 'byte-identical')} to ${values.replay}\n`
        : `  replay ${paint('red', 'differs')} from ${values.replay}\n`,
    );
    return result.identical ? 0 : 1;
  }
  return 0;
}

const usage = `usage: oracle-grove [--seed TEXT] [--turns N] [--trespass] [--ledger FILE] [--replay FILE] [--json]
  MCP_ORACLE=1 or MCP_SERVERS="cmd :: cmd" runs the oracle over MCP stdio.
`;

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`oracle-grove: ${messageOf(error)}\n`);
    process.exitCode = 2;
  },
);
