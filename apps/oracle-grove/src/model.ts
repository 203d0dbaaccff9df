import { createHash } from 'node:crypto';

/** What an agent asks a model: who it is, and the prompt it built. */
export interface ModelRequest {
  agent: string;
  /** The persona (a system prompt). */
  system: string;
  /** Recent events, the AVAILABLE TOOLS block when the agent holds grants, and the task. */
  prompt: string;
}

/**
 * The model behind the agents. The conductor only ever calls `complete`, so a real provider is a
 * new implementation of this interface and nothing else changes.
 */
export interface Model {
  readonly name: string;
  complete(request: ModelRequest): Promise<string>;
}

const openings = [
  'A hush moves through the grove',
  'The lantern light leans sideways',
  'Somewhere beneath the roots, water turns over',
  'A crow lands on the tallest stone',
  'The moss darkens where a footstep was',
  'Wind combs the ferns the wrong way',
  'A bell, far off, almost rings',
  'The shadows of the birches lengthen',
];
const middles = [
  'and the stones seem to listen',
  'as if the path has changed its mind',
  'while the fireflies count something in the dark',
  'and the air smells of rain that has not fallen',
  'as a fox watches from the bracken',
  'and every leaf holds its breath',
];
const endings = [
  'Nothing is quite where it was.',
  'The traveller feels it too.',
  'The night has begun to pay attention.',
  'Even the moss seems to wait.',
  'Something old is awake.',
];

/**
 * A deterministic offline model: its text is a pure function of the request (SHA-256 of the
 * system and prompt picks the phrases), so a changed prompt changes the text, and the demo runs
 * with no network and no keys. A fortune-teller's omen, when the prompt has one, is spoken.
 */
export class OfflineModel implements Model {
  readonly name = 'offline';

  async complete(request: ModelRequest): Promise<string> {
    const digest = createHash('sha256').update(`${request.system}\u0000${request.prompt}`, 'utf8').digest();
    const pick = <T>(list: readonly T[], byte: number) => list[digest[byte]! % list.length]!;
    const scene = `${pick(openings, 0)}, ${pick(middles, 1)}. ${pick(endings, 2)}`;
    const omen = /^The oracle answered: (.+)$/m.exec(request.prompt)?.[1];
    return omen ? `"${omen}" ${scene}` : scene;
  }
}
