import { createHash } from 'node:crypto';
import { defineTool } from '@toolgate/core';
import { z } from 'zod';

/** The omens the oracle draws from. The order is part of the contract: changing it changes every ledger. */
export const omens: readonly string[] = Object.freeze([
  'The lantern you carry was lit by someone you have not yet met.',
  'A door left ajar lets in more than wind.',
  'What the river forgets, the stones remember.',
  'Count the crows twice; the second count is the true one.',
  'A borrowed key opens only borrowed rooms.',
  'The quietest bell in the tower is the one that wakes the town.',
  'Moss grows toward the question you will not ask.',
  'Two paths meet where the map was folded.',
  'The moth knows the flame by its shadow first.',
  'An unsent letter weighs more than a sent one.',
  'The tide keeps a ledger no one can forge.',
  'Salt on the threshold, honey on the sill: choose which guest you want.',
  'A clock that stops is right twice, and wise once.',
  'Under the third root, something patient waits.',
  'The mirror shows the room as it was an instant ago.',
  'Thread the needle from the far side and the cloth will mend itself.',
]);

/**
 * The omen for a seed: SHA-256 of the seed's UTF-8 bytes, its first four bytes read as an unsigned
 * big-endian integer, modulo the number of omens. The same seed gives the same omen in every
 * process and over every transport.
 */
export function drawOmen(seed: string): string {
  const digest = createHash('sha256').update(seed, 'utf8').digest();
  return omens[digest.readUInt32BE(0) % omens.length]!;
}

/**
 * The `oracle` tool: `{ seed }` → `{ omen }`, deterministic, read-only and parallel-safe.
 *
 * @example
 * const registry = new ToolRegistry().register(oracleTool());
 */
export function oracleTool() {
  return defineTool({
    name: 'oracle',
    description: 'Draw a cryptic omen. The same seed always gives the same omen.',
    input: z.object({ seed: z.string().describe('Any text, such as the current scene; it picks the omen.') }),
    run: ({ seed }) => ({ omen: drawOmen(seed) }),
    parallelSafe: true,
    // It touches no path, command or host: a policy rule about those never applies to it.
    policySubject: () => ({}),
  });
}
