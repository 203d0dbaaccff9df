import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { verifyLedgerFile } from '@toolgate/ledger';
import type { CliIo } from './main.js';
import { shownProse } from './quote.js';

/** True when `path` is a directory on disk (a ledger directory: one chain file per writing process). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The chains of a ledger directory: its `*.jsonl` files, by name (the gateway's sort by start time). */
export function chainsOf(directory: string): Array<{ name: string; file: string }> {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, file: join(directory, name) }));
}

/** One chain's verification, as `verify DIR` prints it and the directory viewer lists it. */
export interface ChainStatus {
  readonly name: string;
  readonly file: string;
  readonly ok: boolean;
  readonly count: number;
  /** `ok, N records verified …`, or `bad record at seq S: why`. */
  readonly text: string;
  readonly unavailable: boolean;
}

/** Verifies every chain of a ledger directory, each on its own (each is a hash chain of its own). */
export async function verifyChains(directory: string, workers = 0): Promise<ChainStatus[]> {
  const statuses: ChainStatus[] = [];
  for (const { name, file } of chainsOf(directory)) {
    const result = await verifyLedgerFile(file, workers > 0 ? { workers } : {});
    statuses.push(
      result.ok
        ? {
            name,
            file,
            ok: true,
            count: result.count,
            unavailable: false,
            text: `ok, ${result.count} records verified${result.last ? ` (last seq ${result.last.seq}, hash ${result.last.hash})` : ' (empty)'}`,
          }
        : {
            name,
            file,
            ok: false,
            count: result.count,
            unavailable: result.code === 'LEDGER_UNAVAILABLE',
            text: `bad record at seq ${result.seq}: ${shownProse(result.reason)}`,
          },
    );
  }
  return statuses;
}

/**
 * `toolgate-ledger verify DIR`: every chain of the directory verified, each named with its result,
 * then a closing line. Exit 1 when a chain fails, 3 when one cannot be read or the directory holds
 * no chain (nothing was verified: never a silent pass).
 */
export async function verifyDirectoryCommand(directory: string, workers: number, io: CliIo): Promise<number> {
  const statuses = await verifyChains(directory, workers);
  if (statuses.length === 0) {
    io.stderr.write(
      `${directory}: no chain files (*.jsonl) in this directory, so nothing was verified; ` +
        'give the ledger directory the gateway writes (its config\'s "ledger: DIR/")\n',
    );
    return 3;
  }
  for (const status of statuses) {
    (status.ok ? io.stdout : io.stderr).write(`${join(directory, status.name)}: ${status.text}\n`);
  }
  const bad = statuses.filter((status) => !status.ok);
  const records = statuses.reduce((total, status) => total + status.count, 0);
  if (bad.length === 0) {
    const chains = statuses.length === 1 ? '1 chain' : `${statuses.length} chains`;
    io.stdout.write(`${directory}: ok, ${chains} verified (${records} records)\n`);
    return 0;
  }
  io.stderr.write(`${directory}: ${bad.length} of ${statuses.length} chains failed verification\n`);
  return bad.some((status) => !status.unavailable) ? 1 : 3;
}
