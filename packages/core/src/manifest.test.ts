import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest.js';

describe('parseManifest', () => {
  it('takes { name, tools } as a complete manifest', () => {
    expect(parseManifest({ name: 'scene-whisperer', tools: [] })).toEqual({
      name: 'scene-whisperer',
      tools: [],
    });
  });

  it('keeps the optional fields the demo needs', () => {
    const manifest = parseManifest({
      name: 'fortune-teller',
      tools: ['oracle'],
      handler: 'fortune-teller',
      persona: 'A teller of fortunes.',
      emits: ['oracle.spoke'],
      subscribes: ['world.observed'],
    });
    expect(manifest.emits).toEqual(['oracle.spoke']);
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
    [{ name: 'a', tools: [], emits: ['Oracle'] }, 'emits[0]: must be a dotted lower-case kind'],
  ])('names the bad field of %j', (manifest, message) => {
    expect(() => parseManifest(manifest)).toThrow(message);
  });

  it('names the source in the message', () => {
    expect(() => parseManifest(null, 'config/agents/x.yaml')).toThrow(
      'config/agents/x.yaml is not a valid agent manifest: (root): Invalid input: expected object, received null',
    );
  });
});
