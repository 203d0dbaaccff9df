import * as nodeCrypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as page from './page/browser/node-crypto.js';

// The page's SHA-256 and Ed25519 (noble) stand in for node:crypto's (OpenSSL): they must agree.
describe("the page's crypto agrees with node:crypto", () => {
  it('hashes the same SHA-256, from bytes and from text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.string(), (bytes, text) => {
        expect(
          page.hash('sha256', bytes).equals(nodeCrypto.createHash('sha256').update(bytes).digest()),
        ).toBe(true);
        const chained = page.createHash('sha256').update(text).update(bytes).digest();
        expect(chained.equals(nodeCrypto.createHash('sha256').update(text).update(bytes).digest())).toBe(
          true,
        );
      }),
    );
  });

  it('verifies exactly the Ed25519 signatures node:crypto verifies', () => {
    const { privateKey, publicKey } = nodeCrypto.generateKeyPairSync('ed25519');
    const spki = publicKey.export({ format: 'der', type: 'spki' });
    const pageKey = page.createPublicKey({ key: spki });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(63), fc.nat(255), (message, at, flip) => {
        const signature = nodeCrypto.sign(null, message, privateKey);
        expect(page.verify(null, message, pageKey, signature)).toBe(true);
        const bent = Buffer.from(signature);
        bent[at] = (bent[at] as number) ^ (flip || 1);
        expect(page.verify(null, message, pageKey, bent)).toBe(
          nodeCrypto.verify(null, message, publicKey, bent),
        );
        expect(page.verify(null, message, pageKey, bent)).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it('holds no signing key', () => {
    expect(() => page.sign()).toThrow('the page verifies; it holds no signing key');
  });
});
