import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest.js';

describe('parseManifest', () => {
  it('takes { name, tools } as a complete manifest', () => {
    expect(parseManifest({ name: 'scene-whisperer', tools: [] })).toEqual({
      name: 'scene-whisperer',
      tools: [],
    });
  });

  it("keeps its optional fields, and refuses the demo app's (they are the app's own schema)", () => {
    const manifest = parseManifest({ name: 'fortune-teller', tools: ['oracle'], description: 'Tells.' });
    expect(manifest.description).toBe('Tells.');
    expect(() => parseManifest({ name: 'a', tools: [], persona: 'x' })).toThrow('unknown field "persona"');
  });

  it.each([
    [
      { name: 'a', tools: ['oracle'], tool: [] },
      'manifest is not a valid agent manifest: (root): unknown field "tool"',
    ],
    [{ name: 'a', tools: 'oracle' }, 'tools: Invalid input: expected array, received string'],
    [{ name: 'a', tools: ['oracle', 'bad name'] }, 'tools[1]: must be a tool name'],
    [{ name: 'a', tools: ['oracle', 'oracle'] }, 'tools: must not name a tool twice'],
    [{ tools: [] }, 'name: Invalid input: expected string, received undefined'],
    [{ name: 'a b', tools: [] }, 'name: must be 1–64 letters'],
    [{ name: 'a', tools: [], model: 3 }, 'model: Invalid input: expected string, received number'],
  ])('names the bad field of %j', (manifest, message) => {
    expect(() => parseManifest(manifest)).toThrow(message);
  });

  it('names the source in the message', () => {
    expect(() => parseManifest(null, 'config/agents/x.yaml')).toThrow(
      'config/agents/x.yaml is not a valid agent manifest: (root): Invalid input: expected object, received null',
    );
  });
});
