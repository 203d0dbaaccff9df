import { sha256Hex } from '../chain/canonical.js';
import { steppingClock } from '../chain/clock.js';
import { hashKey } from '../chain/envelope.js';
import { MemoryStore } from '../memory-store.js';

// Crafted ledgers for the tests that verify bytes (here and in @toolgate/ledger-cli).

/** A ledger of `count` records, the one at `marked` holding U+FFFD (bytes EF BF BD) in its payload. */
export async function ledgerWithReplacementCharacter(count: number, marked: number): Promise<Buffer> {
  const store = new MemoryStore({ clock: steppingClock() });
  for (let seq = 0; seq < count; seq++) {
    const text = seq === marked ? 'before \ufffd after' : `plain ${seq}`;
    await store.append({ runId: 'r', kind: 'oracle.spoke', actor: 'oracle', payload: { text } });
  }
  return Buffer.from(store.toJsonl(), 'utf8');
}

/** The same bytes with the first EF BF BD replaced by the single byte FF (one byte shorter). */
export function withFfForReplacement(bytes: Buffer): Buffer {
  const at = bytes.indexOf(Buffer.from([0xef, 0xbf, 0xbd]));
  if (at < 0) throw new Error('the ledger holds no EF BF BD to replace');
  return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 3)]);
}

/** Re-hashes a stored line after its payload was edited, so only what was edited can be wrong. */
function rehashed(line: string, prev: string): string {
  const at = line.indexOf(hashKey);
  const without = line.slice(0, at) + line.slice(at + hashKey.length + 64 + 2);
  return `${line.slice(0, at + hashKey.length)}${sha256Hex(prev + without)}${line.slice(at + hashKey.length + 64)}`;
}

/** A ledger of one record whose payload's `deep` member is an array nested `depth` deep, hashed right. */
export async function deepLedger(depth: number): Promise<string> {
  const store = new MemoryStore({ clock: steppingClock() });
  const event = await store.append({
    runId: 'r',
    kind: 'oracle.spoke',
    actor: 'oracle',
    payload: { deep: 0 },
  });
  const line = store.toJsonl().trimEnd();
  const nested = `${'['.repeat(depth)}0${']'.repeat(depth)}`;
  return `${rehashed(line.replace('"deep":0', `"deep":${nested}`), event.prev)}\n`;
}
