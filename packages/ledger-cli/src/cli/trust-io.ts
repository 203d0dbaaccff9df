import { existsSync, readFileSync } from 'node:fs';
import { ToolgateError } from '@toolgate/core';
import { type LedgerEvent, readLedgerFile, recordLeaves } from '@toolgate/ledger';
import {
  type Checkpoint,
  type NoteKey,
  openNote,
  parseCheckpoint,
  parseNote,
  parseSignerKey,
  parseVerifierKey,
  type VerifiedSignature,
} from '@toolgate/ledger/trust';
import { isPostgresUrl, PostgresStore, verifyPostgresLedger } from '@toolgate/ledger-postgres';
import { ledgerLocation } from '@toolgate/ledger-postgres/internal';
import type { CliIo } from './main.js';

/** A mistake in how the command was called: exit 2 with the message and the command's help. */
export class UsageProblem extends Error {}

/** The text of a file the user named, or a usage problem saying which file and why. */
export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageProblem(
      `cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** A signer key file, as `toolgate-ledger keygen` writes it. */
export function readSignerKey(path: string): NoteKey {
  const parsed = parseSignerKey(readText(path, 'the signer key'));
  if (!parsed.ok) throw new UsageProblem(`${path}: ${parsed.reason}`);
  return parsed.value;
}

/** Verifier keys: each a file, or the key text itself (`name+id+key`). */
export function readVerifierKeys(values: readonly string[]): NoteKey[] {
  return readVerifierKeyTexts(values).map(({ key }) => key);
}

/** Verifier keys with their text (`name+id+key`, trimmed), each a file or the key text itself. */
export function readVerifierKeyTexts(values: readonly string[]): { key: NoteKey; text: string }[] {
  return values.map((value) => {
    const text =
      !existsSync(value) && /^[^\s+]+\+[0-9a-f]{8}\+/.test(value) ? value : readText(value, 'the public key');
    const parsed = parseVerifierKey(text);
    if (!parsed.ok) throw new UsageProblem(`${value}: ${parsed.reason}`);
    return { key: parsed.value, text: text.trim() };
  });
}

/** A signed checkpoint opened with the keys given: its tree head, who signed it, and its note. */
export interface OpenedCheckpoint {
  readonly path: string;
  readonly checkpoint: Checkpoint;
  readonly signatures: readonly VerifiedSignature[];
  readonly note: string;
}

/** Reads a checkpoint file and checks its signatures; refuses one no trusted log key signed. */
export function openCheckpoint(path: string, keys: readonly NoteKey[]): OpenedCheckpoint {
  return openCheckpointNote(readText(path, 'the checkpoint'), path, keys);
}

/**
 * A checkpoint file: opened with the verifier keys `pub` names when there are any (its signatures
 * checked), else only read (a proof against it is checked later, by whoever holds the keys).
 */
export function readCheckpoint(
  path: string,
  pub: readonly string[] | undefined,
): { checkpoint: Checkpoint; note: string } {
  if (pub?.length) return openCheckpoint(path, readVerifierKeys(pub));
  const note = readText(path, 'the checkpoint');
  const parsed = parseNote(note);
  const checkpoint = parsed.ok ? parseCheckpoint(parsed.value.text) : parsed;
  if (!checkpoint.ok) throw new ToolgateError('LEDGER_CORRUPT', `${path}: ${checkpoint.reason}`);
  return { checkpoint: checkpoint.value, note };
}

/** A whole number given as an argument (a SEQ, a size), or a usage problem naming it. */
export function wholeArgument(text: string, what: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageProblem(`${what} must be a whole number such as 41, not "${text}"`);
  }
  return Number(text);
}

/** Checks a checkpoint note's signatures (`path` names it in errors). */
export function openCheckpointNote(note: string, path: string, keys: readonly NoteKey[]): OpenedCheckpoint {
  const opened = openNote(note, keys);
  if (!opened.ok) throw new ToolgateError('LEDGER_CORRUPT', `${path}: ${opened.reason}`);
  const checkpoint = parseCheckpoint(opened.value.text);
  if (!checkpoint.ok) throw new ToolgateError('LEDGER_CORRUPT', `${path}: ${checkpoint.reason}`);
  return { path, checkpoint: checkpoint.value, signatures: opened.value.verified, note };
}

/** Who signed a checkpoint, for people: `"log", cosigned by "w1" at …`. */
export function signedBy(signatures: readonly VerifiedSignature[]): string {
  const logs = signatures
    .filter((signature) => signature.kind === 'log')
    .map((signature) => `"${signature.name}"`);
  const witnesses = signatures
    .filter((signature) => signature.kind === 'witness')
    .map(
      (signature) => `"${signature.name}" at ${new Date((signature.timestamp ?? 0) * 1000).toISOString()}`,
    );
  return `${logs.join(', ')}${witnesses.length ? `, cosigned by ${witnesses.join(', ')}` : ''}`;
}

/** The ledger named as people should read it (a URL without its user and password). */
export function shownLedger(ledger: string): string {
  return isPostgresUrl(ledger) ? ledgerLocation(ledger).label : ledger;
}

/** The Merkle leaves of every record of a file or PostgreSQL ledger, read through a chain check. */
export async function ledgerLeaves(ledger: string): Promise<Uint8Array[]> {
  return recordLeaves(await ledgerRecords(ledger));
}

/** Every record of a file or PostgreSQL ledger, read through a chain check (all of it first for PostgreSQL). */
export async function ledgerRecords(ledger: string): Promise<AsyncIterable<LedgerEvent>> {
  if (!isPostgresUrl(ledger)) return readLedgerFile(ledger);
  const result = await verifyPostgresLedger(ledger);
  if (!result.ok) {
    throw new ToolgateError(
      result.code,
      `${shownLedger(ledger)}: bad record at seq ${result.seq}: ${result.reason}`,
    );
  }
  return (async function* () {
    const store = await PostgresStore.open(ledger, { create: false });
    try {
      for await (const event of store.read()) {
        if (event.seq >= result.count) return; // appended after the check: not verified
        yield event;
      }
    } finally {
      await store.close();
    }
  })();
}

/** Writes a usage problem and the command's help; exit 2. */
export function usageFailure(io: CliIo, command: string, message: string, usage: string): number {
  io.stderr.write(`toolgate-ledger ${command}: ${message}\n\n${usage}`);
  return 2;
}

/** Writes any other failure in one line; exit 1 for a ledger or checkpoint that fails, 3 otherwise. */
export function failure(io: CliIo, command: string, error: unknown): number {
  const message = (error as Error).message ?? String(error);
  io.stderr.write(`toolgate-ledger ${command}: ${message}\n`);
  return ToolgateError.is(error) && error.code === 'LEDGER_CORRUPT' ? 1 : 3;
}
