import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What one 2025-11-25 session keeps of the messages it sent, for a client that resumes a stream. */
export const defaultSessionEventBytes = 256 * 1024;

interface Kept {
  readonly streamId: string;
  /** The message as JSON text: its size is what the bound counts, and no object graph is held. */
  readonly text: string;
}

/**
 * The messages one HTTP session sent on its SSE streams, kept so that a client whose stream broke
 * can resume it with `Last-Event-ID` (2025-11-25 resumability, SEP-1699): with a store, the SDK's
 * transport opens each stream with a priming event (an event id and the `retry` time) and replays
 * what the client missed on the GET that resumes it. Bounded: the oldest messages are dropped once
 * the session's kept text passes `maxBytes`, and all of it goes with the session. A resume from an
 * event no longer kept is refused (the SDK answers it 500, "Error replaying events"), so a client
 * never receives a stream with a gap in it.
 */
export function sessionEventStore(maxBytes: number = defaultSessionEventBytes): EventStore {
  const kept = new Map<string, Kept>(); // in the order sent
  let bytes = 0;
  let next = 0;
  return {
    async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
      const eventId = `${streamId}_${next++}`;
      const text = JSON.stringify(message);
      kept.set(eventId, { streamId, text });
      bytes += text.length;
      for (const [oldest, event] of kept) {
        if (bytes <= maxBytes || oldest === eventId) break;
        kept.delete(oldest);
        bytes -= event.text.length;
      }
      return eventId;
    },
    async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
      return kept.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }): Promise<string> {
      const from = kept.get(lastEventId);
      if (from === undefined) throw new Error(`event ${lastEventId} is no longer kept: start the call again`);
      let after = false;
      for (const [eventId, event] of [...kept]) {
        if (after && event.streamId === from.streamId && event.text !== '{}')
          await send(eventId, JSON.parse(event.text) as JSONRPCMessage);
        if (eventId === lastEventId) after = true;
      }
      return from.streamId;
    },
  };
}
