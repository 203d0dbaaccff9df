import { defineTool, ToolgateError, ToolRegistry } from '@toolgate/core';
import { z } from 'zod';

/** A deterministic omen from a seed. */
export const oracle = defineTool({
  name: 'oracle',
  description: 'Draw a cryptic omen from a seed.',
  input: z.object({ seed: z.string().describe('Any text; the same seed gives the same omen.') }),
  run: ({ seed }) => ({ omen: `the ${seed.length % 2 ? 'moss' : 'stone'} remembers ${seed}` }),
  parallelSafe: true,
});

/** A tool that always fails. */
export const brittle = defineTool({
  name: 'brittle',
  description: 'Always breaks.',
  input: z.object({ why: z.string().describe('What to break on.') }),
  run: ({ why }) => {
    throw new ToolgateError('NOT_FOUND', `nothing called ${why}`);
  },
});

/** A tool that returns a lot of text. */
export const chatty = defineTool({
  name: 'chatty',
  description: 'Talks too much.',
  input: z.object({ words: z.number().describe('How many words.') }),
  run: ({ words }) => ({ text: 'blah '.repeat(words) }),
});

/** The registry of the test tools. */
export function toolRegistry(): ToolRegistry {
  return new ToolRegistry().register(oracle).register(brittle).register(chatty);
}

/** Call ids `call-1`, `call-2` … */
export function counter(prefix = 'call'): () => string {
  let next = 0;
  return () => `${prefix}-${++next}`;
}

/** A gate clock that steps 1 ms per reading: every call lasts 1 ms, so ledgers are reproducible. */
export function tickingClock(): () => number {
  let now = 0;
  return () => now++;
}
