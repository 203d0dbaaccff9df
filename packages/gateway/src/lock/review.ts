import type { GatewayConfig } from '../config-types.js';
import { readLedger } from '../ledger-open.js';
import { promptChanges } from './approve-prompt.js';
import { lockPathOf, readLock, readLockFile } from './lock-file.js';

/** A tool change awaiting review: the latest reported for the tool, not yet in the lock file. */
export interface PendingChange {
  tool: string;
  server: string;
  fingerprint: string;
  before?: { description: string; inputSchema: unknown };
  after: { description: string; inputSchema: unknown };
  reason?: string;
  /** Set for a prompt (its "input schema" is then its arguments). */
  kind?: 'prompt';
}

/**
 * Every tool whose latest reported change (in the gateway's ledger) the lock file does not hold:
 * what `toolgate-gateway review` shows, oldest first.
 */
export async function pendingChanges(config: GatewayConfig): Promise<PendingChange[]> {
  const lock = (await readLock(lockPathOf(config.source))) ?? new Map();
  const latest = new Map<string, PendingChange>();
  for (const event of await readLedger(config.ledger, { kind: 'tool.changed' })) {
    const payload = event.payload as Partial<PendingChange> & { change?: string };
    if (payload.change !== 'changed' || typeof payload.tool !== 'string' || payload.after === undefined)
      continue;
    if (typeof payload.fingerprint !== 'string') continue;
    latest.delete(payload.tool);
    latest.set(payload.tool, payload as PendingChange);
  }
  const tools = [...latest.values()].filter(
    (change) => lock.get(change.tool)?.fingerprint !== change.fingerprint,
  );
  return [...tools, ...(await pendingPrompts(config))];
}

/** Every prompt whose latest reported change the lock file does not hold. */
async function pendingPrompts(config: GatewayConfig): Promise<PendingChange[]> {
  const reviewed = (await readLockFile(lockPathOf(config.source)))?.prompts ?? {};
  const latest = new Map<string, PendingChange>();
  const shape = (text: string) => {
    const parsed = JSON.parse(text) as { description: string; arguments: unknown };
    return { description: parsed.description, inputSchema: parsed.arguments };
  };
  for (const change of await promptChanges(config)) {
    latest.delete(change.prompt);
    latest.set(change.prompt, {
      kind: 'prompt',
      tool: change.prompt,
      server: change.server,
      fingerprint: change.fingerprint,
      ...(change.before === undefined ? {} : { before: shape(change.before) }),
      after: shape(change.after),
      ...(change.change === 'added' ? { reason: 'a prompt the lock file never named' } : {}),
    });
  }
  return [...latest.values()].filter((change) => reviewed[change.tool]?.fingerprint !== change.fingerprint);
}

/** The text `review` prints for one change: its description and schema as a line diff, and the command that approves exactly it. */
export function describePending(change: PendingChange, configPath: string): string {
  const lines = [
    `${change.kind === 'prompt' ? 'prompt ' : ''}${change.tool} on upstream "${change.server}"${change.reason ? ` (${change.reason})` : ''}`,
  ];
  const before = change.before;
  lines.push(
    '  description:',
    ...lineDiff(before?.description ?? '', change.after.description).map((line) => `    ${line}`),
  );
  const schema = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));
  const schemaDiff = lineDiff(schema(before?.inputSchema), schema(change.after.inputSchema));
  lines.push(
    `  ${change.kind === 'prompt' ? 'arguments' : 'input schema'}:${schemaDiff.every((line) => line.startsWith(' ')) ? ' unchanged' : ''}`,
    ...(schemaDiff.every((line) => line.startsWith(' ')) ? [] : schemaDiff.map((line) => `    ${line}`)),
    `  approve exactly this: toolgate-gateway approve ${change.tool} --fingerprint ${change.fingerprint} --config ${configPath}`,
  );
  return lines.join('\n');
}

/** A line diff (`- ` removed, `+ ` added, `  ` kept) by longest common subsequence. */
export function lineDiff(before: string, after: string): string[] {
  const left = before === '' ? [] : before.split('\n');
  const right = after === '' ? [] : after.split('\n');
  const common: number[][] = Array.from({ length: left.length + 1 }, () =>
    new Array(right.length + 1).fill(0),
  );
  for (let i = left.length - 1; i >= 0; i -= 1) {
    for (let j = right.length - 1; j >= 0; j -= 1) {
      common[i]![j] =
        left[i] === right[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i < left.length && j < right.length && left[i] === right[j]) {
      out.push(`  ${left[i]}`);
      i += 1;
      j += 1;
    } else if (i < left.length && (j === right.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      out.push(`- ${left[i]}`);
      i += 1;
    } else {
      out.push(`+ ${right[j]}`);
      j += 1;
    }
  }
  return out;
}
