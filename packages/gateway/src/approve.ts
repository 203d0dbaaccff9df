import { readFile, writeFile } from 'node:fs/promises';
import { ToolgateError } from '@toolgate/core';
import type { ReviewedTool } from '@toolgate/mcp-client';
import { parseDocument } from 'yaml';
import type { GatewayConfig } from './config-types.js';
import { shareReview } from './fleet/share-review.js';
import { ledgerLabel, readLedger } from './ledger-open.js';
import { approvePrompt } from './lock/approve-prompt.js';
import { lockPathOf, writeLockEntry } from './lock/lock-file.js';

/**
 * Approves a changed upstream tool as the ledger last reported it: finds the latest `tool.changed`
 * record of `tool` in the gateway's ledger (a file or PostgreSQL) and writes its fingerprint to the config's `approve`
 * list (keeping the file's comments and layout) and the reviewed definition to the lock file beside
 * it (`gateway.lock.json`, read at every start). The running gateway applies it on SIGHUP; a tool
 * that changed again after that report stays withheld. Returns the fingerprint.
 */
export async function approveTool(config: GatewayConfig, tool: string, shown?: string): Promise<string> {
  // a prompt is reviewed in the lock file alone (read at every list, so no reload is needed)
  const prompt = await approvePrompt(config, tool, shown);
  if (prompt !== undefined) return prompt;
  let fingerprint: string | undefined;
  let reviewed: ReviewedTool | undefined;
  for (const event of await readLedger(config.ledger, { kind: 'tool.changed' })) {
    const payload = event.payload as {
      tool?: unknown;
      fingerprint?: unknown;
      change?: unknown;
      server?: unknown;
      remoteName?: unknown;
      after?: { description?: unknown; inputSchema?: unknown };
    };
    if (payload.tool === tool && payload.change === 'changed' && typeof payload.fingerprint === 'string') {
      fingerprint = payload.fingerprint;
      const { server, remoteName, after } = payload;
      reviewed =
        typeof server === 'string' && typeof remoteName === 'string' && typeof after?.description === 'string'
          ? {
              server,
              remoteName,
              fingerprint,
              description: after.description,
              inputSchema: after.inputSchema as ReviewedTool['inputSchema'],
            }
          : undefined;
    }
  }
  if (fingerprint === undefined) {
    throw new ToolgateError(
      'UNKNOWN_TOOL',
      `the ledger ${ledgerLabel(config.ledger)} records no change of a tool named ${JSON.stringify(tool)}; nothing to approve (names are as clients see them, with the prefix)`,
    );
  }
  if (shown !== undefined && shown !== fingerprint) {
    throw new ToolgateError(
      'TOOL_CHANGED',
      `tool ${JSON.stringify(tool)} changed again after the review you saw (fingerprint ${shown}); it is now ${fingerprint}. Nothing was approved: run toolgate-gateway review --config ${config.source} again`,
    );
  }
  const text = await readFile(config.source, 'utf8');
  const document = parseDocument(text);
  document.setIn(['approve', tool], fingerprint);
  await writeFile(config.source, document.toString());
  // the review outlasts the process: the next start compares what upstreams list against it
  if (reviewed !== undefined) await writeLockEntry(lockPathOf(config.source), tool, reviewed);
  // with fleet: every instance on the shared database applies it now (NOTIFY), and at its start
  if (config.fleet !== undefined) await shareReview(config.fleet, { tool, fingerprint, review: reviewed });
  return fingerprint;
}
