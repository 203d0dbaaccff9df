/**
 * The part of `node:crypto` that `@toolgate/ledger/trust`'s checker uses, for the page: SHA-256
 * (@noble/hashes) and Ed25519 verification (@noble/curves, RFC 8032 strict, as OpenSSL checks it).
 * The page's bundle maps `node:crypto` here (package.json's build), so the browser runs the very
 * code `toolgate-ledger verify-proof` runs; only these primitives differ. Nothing here signs.
 *
 * @module
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';

const encoder = new TextEncoder();

function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? encoder.encode(data) : data;
}

/** An Ed25519 public key as `createPublicKey` returns it here: the 32 raw bytes after the SPKI prefix. */
interface PageKey {
  readonly raw: Uint8Array;
}

const spkiPrefixLength = 12;

/** `createHash('sha256')`: the one digest the checker uses. */
export function createHash(algorithm: string) {
  if (algorithm !== 'sha256') throw new Error(`the page computes sha256 only, not ${algorithm}`);
  const state = sha256.create();
  const chain = {
    update(data: Uint8Array | string) {
      state.update(bytesOf(data));
      return chain;
    },
    digest() {
      return Buffer.from(state.digest());
    },
  };
  return chain;
}

/** One-shot `hash('sha256', data, 'buffer')`. */
export function hash(algorithm: string, data: Uint8Array | string): Buffer {
  return createHash(algorithm).update(data).digest();
}

/** An Ed25519 public key from its DER SPKI form (the only form the checker builds). */
export function createPublicKey(input: { key: Uint8Array }): PageKey {
  if (input.key.length !== spkiPrefixLength + 32) throw new Error('the page reads Ed25519 SPKI keys only');
  return { raw: input.key.subarray(spkiPrefixLength) };
}

/** `verify(null, message, key, signature)` for Ed25519. */
export function verify(_algorithm: null, message: Uint8Array, key: PageKey, signature: Uint8Array): boolean {
  try {
    return ed25519.verify(signature, message, key.raw, { zip215: false });
  } catch {
    return false;
  }
}

function cannot(): never {
  throw new Error('the page verifies; it holds no signing key');
}

/** Not in the page: it never signs. */
export const sign = cannot;
/** Not in the page: it never signs. */
export const createPrivateKey = cannot;
/** Not in the page: it never signs. */
export const generateKeyPairSync = cannot;
