import { createHash } from 'node:crypto';
import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson } from '@toolgate/ledger';
import type { Gateway } from '../gateway.js';
import { lockPathOf, type ReviewedPrompt, readLockFile, writeLockPrompts } from './lock-file.js';

/** A prompt as an upstream lists it, with the name the gateway serves it by and its upstream. */
export interface ListedPrompt {
  readonly served: string;
  readonly server: string;
  readonly prompt: Prompt;
}

/** What a prompt is reviewed as: its description and arguments, as a `sha256:` of their canonical JSON. */
export function promptFingerprint(prompt: Prompt): string {
  const text = canonicalJson({ description: prompt.description ?? '', arguments: prompt.arguments ?? [] });
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The fingerprints already reported as `prompt.changed`, per gateway (each change recorded once). */
const reported = new WeakMap<Gateway, Set<string>>();

/**
 * The listed prompts the lock file allows: each whose fingerprint the lock holds for its name. A
 * prompt that differs, or (unless `new_tools: allow`) one the lock never named, is withheld and
 * recorded once as `prompt.changed` (before, after, fingerprint) so `review` shows it and
 * `approve NAME --fingerprint F` approves exactly it. A lock with no prompts section yet (the first
 * list, or a lock written before prompts were reviewed) takes what is listed now, trusted on first
 * use, and says so on stderr.
 */
export async function reviewedPrompts(
  gateway: Gateway,
  listed: readonly ListedPrompt[],
): Promise<ListedPrompt[]> {
  const path = lockPathOf(gateway.config.source);
  const lock = await readLockFile(path);
  if (lock?.prompts === undefined) {
    if (listed.length === 0) return [...listed];
    await writeLockPrompts(path, () =>
      Object.fromEntries(listed.map((entry) => [entry.served, reviewOf(entry)])),
    );
    gateway.log(
      `wrote the ${listed.length} prompts served now to ${path}: review them and commit it; a prompt that differs from it later is withheld until approved`,
    );
    return [...listed];
  }
  const kept: ListedPrompt[] = [];
  for (const entry of listed) {
    const fingerprint = promptFingerprint(entry.prompt);
    const known = lock.prompts[entry.served];
    if (known?.fingerprint === fingerprint || (known === undefined && gateway.config.newTools === 'allow')) {
      kept.push(entry);
      continue;
    }
    const told = reported.get(gateway) ?? new Set<string>();
    reported.set(gateway, told);
    if (told.has(`${entry.served} ${fingerprint}`)) continue;
    told.add(`${entry.served} ${fingerprint}`);
    gateway.log(
      `prompt ${entry.served} ${known === undefined ? 'was never reviewed' : 'differs from its review'} in ${path}: withheld; see toolgate-gateway review --config ${gateway.config.source}`,
    );
    await gateway.note('prompt.changed', {
      prompt: entry.served,
      server: entry.server,
      remoteName: entry.prompt.name,
      fingerprint,
      change: known === undefined ? 'added' : 'changed',
      after: canonicalJson({
        description: entry.prompt.description ?? '',
        arguments: entry.prompt.arguments ?? [],
      }),
      ...(known === undefined
        ? {}
        : { before: canonicalJson({ description: known.description, arguments: known.arguments }) }),
    });
  }
  return kept;
}

function reviewOf(entry: ListedPrompt): ReviewedPrompt {
  return {
    server: entry.server,
    remoteName: entry.prompt.name,
    fingerprint: promptFingerprint(entry.prompt),
    description: entry.prompt.description ?? '',
    arguments: entry.prompt.arguments ?? [],
  };
}
