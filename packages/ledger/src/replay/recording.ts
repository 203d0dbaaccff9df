import type { JsonValue, ToolDescription } from '@toolgate/core';
import { canonicalJson } from '../chain/canonical.js';
import type { LedgerEvent } from '../chain/event.js';
import { replaceLoneSurrogates, surrogatesReplacedField } from '../well-formed.js';

/** One recorded call: its three events, correlated by call id. */
export interface RecordedCall {
  readonly agent: string;
  readonly tool: string;
  readonly parameters: JsonValue;
  /** `agent`, `tool` and canonical parameters: what a replayed call is matched on. */
  readonly key: string;
  readonly called: LedgerEvent;
  decided?: LedgerEvent;
  returned?: LedgerEvent;
}

/** The calls of a recording, in order, and the tools it described. */
export interface Recording {
  readonly calls: RecordedCall[];
  readonly descriptions: Map<string, ToolDescription>;
  /** Every tool the recording called. */
  readonly toolNames: Set<string>;
  /** The `policy.asked` records, by agent and ask id: a replay writes again only the asks recorded. */
  readonly asked: Set<string>;
}

/** The key of a recorded `ask` put to an approver that answers later. */
export function askKey(agent: string, askId: string): string {
  return `${agent}\u0000${askId}`;
}

/**
 * The canonical JSON of a value as a recorder records it: lone surrogates replaced with U+FFFD, so a
 * replayed call carrying one matches its recording.
 */
export function canonicalOf(value: unknown, what?: string): string {
  return canonicalJson(replaceLoneSurrogates(value as JsonValue).value, what);
}

/** A recorded payload without the recorder's note of replaced surrogates. */
export function withoutNote(payload: Record<string, unknown>): Record<string, unknown> {
  const { [surrogatesReplacedField]: _note, ...rest } = payload;
  return rest;
}

/** The match key of a call. */
export function callKey(agent: string, tool: string, parameters: unknown): string {
  return `${agent}\u0000${tool}\u0000${canonicalOf(parameters ?? {}, 'the parameters of a replayed call')}`;
}

type Payload = { [key: string]: JsonValue };

/** Groups the `tool.called`, `policy.decided` and `tool.returned` events of a run by call id. */
export function readRecording(events: Iterable<LedgerEvent>, runId?: string): Recording {
  const calls: RecordedCall[] = [];
  const byCallId = new Map<string, RecordedCall>();
  const descriptions = new Map<string, ToolDescription>();
  const toolNames = new Set<string>();
  const asked = new Set<string>();
  for (const event of events) {
    if (runId !== undefined && event.runId !== runId) continue;
    const payload = (event.payload ?? {}) as Payload;
    const callId = `${event.runId}\u0000${String(payload.callId)}`;
    if (event.kind === 'tool.called') {
      const tool = String(payload.tool);
      const call: RecordedCall = {
        agent: event.actor,
        tool,
        parameters: payload.parameters ?? {},
        key: callKey(event.actor, tool, payload.parameters),
        called: event,
      };
      calls.push(call);
      byCallId.set(callId, call);
      toolNames.add(tool);
    } else if (event.kind === 'policy.decided') {
      // the call's own decision is its first; later ones were made while it ran (a redirect hop)
      const call = byCallId.get(callId);
      if (call && call.decided === undefined) call.decided = event;
    } else if (event.kind === 'tool.returned') {
      const call = byCallId.get(callId);
      if (call) call.returned = event;
    } else if (event.kind === 'policy.asked') {
      asked.add(askKey(event.actor, String(payload.askId)));
    } else if (event.kind === 'tools.described' && Array.isArray(payload.tools)) {
      for (const tool of payload.tools as unknown as ToolDescription[]) {
        descriptions.set(tool.name, tool);
      }
    }
  }
  return { calls, descriptions, toolNames, asked };
}

/** What differs between a recorded call and a replayed one, in words. */
export function differenceOf(
  recorded: RecordedCall,
  agent: string,
  tool: string,
  parameters: unknown,
): string {
  const parts: string[] = [];
  if (recorded.agent !== agent) parts.push(`agent "${agent}" instead of "${recorded.agent}"`);
  if (recorded.tool !== tool) parts.push(`tool "${tool}" instead of "${recorded.tool}"`);
  const was = canonicalOf(recorded.parameters);
  const now = canonicalOf(parameters ?? {});
  if (was !== now) parts.push(`parameters ${now} instead of ${was}`);
  return parts.join(', ');
}
