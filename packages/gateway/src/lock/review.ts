import type { GatewayConfig } from '../config-load.js';
import { readLedger } from '../ledger-open.js';
import { lockPathOf, readLock } from './lock-file.js';

/** A tool change awaiting review: the latest reported for the tool, not yet in the lock file. */
export interface PendingChange {
  tool: string;
  server: string;
  fingerprint: string;
  before?: { description: string; inputSchema: unknown };
  after: { description: string; inputSchema: unknown };
  reason?: string;
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
  return [...latest.values()].filter((change) => lock.get(change.tool)?.fingerprint !== change.fingerprint);
}

/** The text `review` prints for one change: its description and schema as a line diff, and the command that approves exactly it. */
export function describePending(change: PendingChange, configPath: string): string {
  const lines = [
    `${change.tool} on upstream "${change.server}"${change.reason ? ` (${change.reason})` : ''}`,
  ];
  const before = change.before;
  lines.push(
    '  description:',
    ...lineDiff(before?.description ?? '', change.after.description).map((line) => `    ${line}`),
  );
  const schema = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));
  const schemaDiff = lineDiff(schema(before?.inputSchema), schema(change.after.inputSchema));
  lines.push(
    schemaDiff.every((line) => line.startsWith(' ')) ? '  input schema: unchanged' : '  input schema:',
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
