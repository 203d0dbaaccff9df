import { createHash, randomBytes } from 'node:crypto';
import type { RequestStateCodec, ServerContext } from '@modelcontextprotocol/server';
import { ToolgateError } from '@toolgate/core';

/**
 * What a signed `requestState` holds: which call it was issued for — a policy `ask`'s, or a held
 * call's whose upstream asks the client something.
 */
export interface ApprovalState {
  /** SHA-256 of the tool name and the arguments' JSON, as the client sent them. */
  call: string;
  /** A random id, so that one state is answered once (see `AnsweredStates`). */
  nonce: string;
  /** When the state stops being valid, in ms since the epoch (the codec's expiry, for `AnsweredStates`). */
  expiresAt: number;
  /**
   * Set when the state answers an upstream's requests to the client (see `HeldCalls`): the held
   * call's id, the round it was issued for and the gateway instance that holds the call.
   */
  held?: { id: string; round: number; instance: string };
}

/** The environment variable holding the key that signs `requestState` (shared by every instance). */
export const stateKeyVariable = 'TOOLGATE_GATEWAY_STATE_KEY';

/** How long an `ask` sent by `input_required` may wait for its answer: 10 minutes. */
export const approvalStateTtlSeconds = 600;

/**
 * The codec that signs and checks the `requestState` of an `ask` answered by multi-round trip
 * and of a held call (the SDK's HMAC-SHA256 `createRequestStateCodec`): bound to the method and to the
 * client the bearer token names, so a state minted for one client is refused from another, and expiring after
 * {@link approvalStateTtlSeconds}. The key is `TOOLGATE_GATEWAY_STATE_KEY` (32 characters or more;
 * give every instance behind one address the same), else a random key of this process.
 */
export async function approvalCodec(env: NodeJS.ProcessEnv): Promise<RequestStateCodec<ApprovalState>> {
  const { createRequestStateCodec } = await import('@modelcontextprotocol/server');
  const configured = env[stateKeyVariable];
  if (configured !== undefined && Buffer.byteLength(configured) < 32) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `the environment variable ${stateKeyVariable} holds ${Buffer.byteLength(configured)} bytes; the key ` +
        'that signs the requestState of an ask needs 32 or more: set it to a long random value (the same on every instance)',
    );
  }
  return createRequestStateCodec<ApprovalState>({
    key: configured ?? randomBytes(32),
    ttlSeconds: approvalStateTtlSeconds,
    bind: (context: ServerContext) => `${context.mcpReq.method}\0${context.http?.authInfo?.clientId ?? ''}`,
  });
}

/** The digest a state binds: the tool and its arguments, so an answer cannot approve another call. */
export function callDigest(tool: string, parameters: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([tool, parameters ?? {}]))
    .digest('hex');
}
