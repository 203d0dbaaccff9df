import type { LedgerEvent } from './event.js';
import { ledgerSchemaVersion } from './event.js';

/** The start of the hash member of a stored line. */
export const hashKey = '"hash":"';

/** The envelope fields that go into the canonical text beside the payload's. */
export type Unsealed = Omit<LedgerEvent, 'hash' | 'payload' | 'schemaVersion'>;

/**
 * The canonical JSON of an event without its hash, in two parts: the hash member goes between them
 * (keys sort actor, at, hash, id …). The envelope's fields are strings and integers, whose
 * JSON.stringify text is canonical, so only the payload needs the canonicaliser.
 */
export function envelopeParts(event: Unsealed, payloadText: string): { front: string; back: string } {
  return {
    front: `{"actor":${quote(event.actor)},"at":${quote(event.at)},`,
    back:
      `"id":${quote(event.id)},"kind":${quote(event.kind)},"payload":${payloadText},` +
      `"prev":"${event.prev}","runId":${quote(event.runId)},"schemaVersion":${ledgerSchemaVersion},` +
      `"seq":${event.seq},"turn":${event.turn}}`,
  };
}

/** What a string needs JSON.stringify for: an escape. */
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's JSON text: between quotes as it stands when nothing in it needs escaping. */
function quote(text: string): string {
  return typeof text === 'string' && !needsEscape.test(text) ? `"${text}"` : JSON.stringify(text);
}
