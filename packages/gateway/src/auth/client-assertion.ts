import { createPrivateKey, type KeyObject, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { messageOf } from '@toolgate/core';
import { SignJWT } from 'jose';

/** A private key the gateway signs its client assertions with, and the JWS algorithm it implies. */
export interface AssertionKey {
  readonly key: KeyObject;
  readonly alg: string;
}

const curves: Readonly<Record<string, string>> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

/**
 * The private key in the PEM file `path` (PKCS #8, or SEC 1 / PKCS #1), with its algorithm: ES256,
 * ES384 or ES512 by its curve, RS256 for RSA, EdDSA for Ed25519. A problem is thrown naming `key`
 * (the config key) and the file, never the key's content.
 */
export function readAssertionKey(path: string, key: string): AssertionKey {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${key}: cannot read ${path}: ${messageOf(error)}`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new Error(`${key}: ${path} holds no PEM private key (give a PKCS #8 "BEGIN PRIVATE KEY" file)`);
  }
  const type = privateKey.asymmetricKeyType;
  const curve = privateKey.asymmetricKeyDetails?.namedCurve;
  const alg =
    type === 'ec' ? curves[curve ?? ''] : type === 'rsa' ? 'RS256' : type === 'ed25519' ? 'EdDSA' : undefined;
  if (alg === undefined) {
    throw new Error(
      `${key}: the key in ${path} is ${type}${curve === undefined ? '' : ` (${curve})`}; give an EC P-256/P-384/P-521, RSA or Ed25519 key`,
    );
  }
  return { key: privateKey, alg };
}

/**
 * A client assertion (RFC 7523 §2.2, `private_key_jwt`): a JWT by `clientId` about itself for the
 * authorization server `audience`, valid for a minute and used once (`jti`).
 */
export function clientAssertion(options: {
  key: AssertionKey;
  clientId: string;
  audience: string;
  now: number;
}): Promise<string> {
  const issuedAt = Math.floor(options.now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: options.key.alg, typ: 'JWT' })
    .setIssuer(options.clientId)
    .setSubject(options.clientId)
    .setAudience(options.audience)
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 60)
    .sign(options.key.key);
}
