import type { Manifest } from '@toolgate/core';
import { manifestSchema } from '@toolgate/core';
import { z } from 'zod';

const eventKind = z
  .string()
  .regex(/^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)+$/, 'must be a dotted lower-case kind such as "oracle.spoke"');

/**
 * The demo's agent manifest: core's (`name`, `tools`, …) and the fields only the demo reads — the
 * persona (a system prompt), the handler that acts on its turn, the event kinds it emits and
 * subscribes to. Unknown keys are refused, as in core's.
 */
export const agentManifestSchema = manifestSchema.extend({
  persona: z.string().optional(),
  handler: z.string().optional(),
  emits: z.array(eventKind).optional(),
  subscribes: z.array(eventKind).optional(),
});

/** A demo agent's manifest. */
export type AgentManifest = z.output<typeof agentManifestSchema>;

/** The part of a demo manifest the gate takes: core's fields only. */
export function gateManifest(manifest: AgentManifest): Manifest {
  const { persona: _persona, handler: _handler, emits: _emits, subscribes: _subscribes, ...core } = manifest;
  return core;
}
