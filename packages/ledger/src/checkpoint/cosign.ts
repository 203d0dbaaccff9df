import { sign } from 'node:crypto';
import type { NoteKey } from './keys.js';
import { cosignedMessage, signatureLine } from './note.js';

/**
 * A witness's cosignature line on a checkpoint's note text (C2SP tlog-cosignature v1, Ed25519):
 * `— <witness> base64(key id ‖ timestamp ‖ signature)`.
 */
export function cosignatureLine(text: string, key: NoteKey, timestamp: number): string {
  if (key.kind !== 'witness') {
    throw new RangeError(
      `key "${key.name}" is a log key; a cosignature takes a witness key (keygen --witness)`,
    );
  }
  if (!Number.isSafeInteger(timestamp) || timestamp <= 0)
    throw new RangeError('a cosignature timestamp is a positive POSIX time');
  const signature = sign(null, Buffer.from(cosignedMessage(text, timestamp), 'utf8'), key.key);
  const stamp = Buffer.alloc(8);
  stamp.writeBigUInt64BE(BigInt(timestamp));
  return signatureLine(key, Buffer.concat([stamp, signature]));
}
