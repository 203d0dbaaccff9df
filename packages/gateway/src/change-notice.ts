import type { ToolChange } from '@toolgate/mcp-client';

/** The gateway's line about an upstream tool's change, naming the review and approve commands to run. */
export function describeChange(change: ToolChange, source: string): string {
  const approve =
    change.fingerprint === undefined
      ? ''
      : `; review it (toolgate-gateway review --config ${source}), then toolgate-gateway approve ${change.tool} --config ${source}`;
  return `tool "${change.tool}" on upstream "${change.server}" ${change.kind}${change.reason ? ` (${change.reason})` : ''}${approve}`;
}
