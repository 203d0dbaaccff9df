// Imports node:crypto only: an auditor's checker depends on nothing else of ours.
import { emptyRoot, sameHash } from '../merkle/hash.js';
import type { Checked } from './keys.js';

/** A log's tree head: the C2SP tlog-checkpoint body (origin, size, root hash, extension lines). */
export interface Checkpoint {
  /** Who issued it: a schema-less URL such as `example.com/agents`. */
  readonly origin: string;
  /** How many records the tree holds (the records of seq 0 … size − 1). */
  readonly size: number;
  /** The RFC 9162 root of those records. */
  readonly root: Uint8Array;
  readonly extensions: readonly string[];
}

/** The note text of a checkpoint: origin, size, base64 root, each extension, each on its own line. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const lines = [checkpoint.origin, String(checkpoint.size), Buffer.from(checkpoint.root).toString('base64')];
  return `${[...lines, ...checkpoint.extensions].join('\n')}\n`;
}

/** Reads a checkpoint's note text. */
export function parseCheckpoint(text: string): Checked<Checkpoint> {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : [];
  const [origin, size, root, ...extensions] = lines;
  if (origin === undefined || size === undefined || root === undefined) {
    return refused('a checkpoint has three lines: origin, tree size, root hash');
  }
  if (origin.length === 0) return refused('the checkpoint origin is empty');
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) {
    return refused(`the checkpoint tree size "${size}" is not a decimal number`);
  }
  const bytes = Buffer.from(root, 'base64');
  if (bytes.length !== 32 || bytes.toString('base64') !== root) {
    return refused(`the checkpoint root "${root}" is not a 32-byte hash in base64`);
  }
  if (extensions.some((line) => line.length === 0)) return refused('a checkpoint extension line is empty');
  const checkpoint = { origin, size: Number(size), root: new Uint8Array(bytes), extensions };
  if (checkpoint.size === 0 && !sameHash(checkpoint.root, emptyRoot)) {
    return refused('a checkpoint of size 0 must have the root of the empty tree');
  }
  return { ok: true, value: checkpoint };
}

function refused(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
