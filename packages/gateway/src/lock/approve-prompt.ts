import { ToolgateError } from '@toolgate/core';
import type { GatewayConfig } from '../config-types.js';
import { readLedger } from '../ledger-open.js';
import { lockPathOf, type ReviewedPrompt, writeLockPrompts } from './lock-file.js';

/** A `prompt.changed` record as the gateway writes it (`before` and `after` are canonical JSON texts). */
export interface PromptChange {
  prompt: string;
  server: string;
  remoteName: string;
  fingerprint: string;
  change: string;
  before?: string;
  after: string;
}

/** Every `prompt.changed` record of the gateway's ledger, oldest first. */
export async function promptChanges(config: GatewayConfig): Promise<PromptChange[]> {
  return (await readLedger(config.ledger, { kind: 'prompt.changed' }))
    .map((event) => event.payload as Partial<PromptChange>)
    .filter(
      (payload): payload is PromptChange =>
        typeof payload.prompt === 'string' &&
        typeof payload.fingerprint === 'string' &&
        typeof payload.after === 'string',
    );
}

/**
 * Approves a new or changed prompt as the ledger last reported it (`prompt.changed`), writing its
 * review to the lock file; `shown` (the `--fingerprint` of the review the operator read) must still
 * be that change. Returns the fingerprint, or undefined when the ledger reports no change of a
 * prompt so named (then it may be a tool).
 */
export async function approvePrompt(
  config: GatewayConfig,
  name: string,
  shown?: string,
): Promise<string | undefined> {
  const latest = (await promptChanges(config)).filter((change) => change.prompt === name).at(-1);
  if (latest === undefined) return undefined;
  if (shown !== undefined && shown !== latest.fingerprint) {
    throw new ToolgateError(
      'TOOL_CHANGED',
      `prompt ${JSON.stringify(name)} changed again after the review you saw (fingerprint ${shown}); it is now ${latest.fingerprint}. Nothing was approved: run toolgate-gateway review --config ${config.source} again`,
    );
  }
  const after = JSON.parse(latest.after) as { description: string; arguments: unknown[] };
  const review: ReviewedPrompt = {
    server: latest.server,
    remoteName: latest.remoteName,
    fingerprint: latest.fingerprint,
    description: after.description,
    arguments: after.arguments,
  };
  await writeLockPrompts(lockPathOf(config.source), (prompts) => ({ ...prompts, [name]: review }));
  return latest.fingerprint;
}
