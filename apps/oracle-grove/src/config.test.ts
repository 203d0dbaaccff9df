import { describe, expect, it } from 'vitest';
import { configWith } from '../test/fixtures.js';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('loads the scenario and the manifest of every agent it can cast', async () => {
    const { scenario, agents } = await loadConfig();
    expect(scenario.cast).toEqual(['scene-whisperer', 'fortune-teller']);
    expect(agents.get('fortune-teller')).toMatchObject({
      handler: 'fortune-teller',
      tools: ['oracle'],
      emits: ['oracle.spoke'],
    });
    expect(agents.get('scene-whisperer')).toMatchObject({
      handler: 'generic',
      tools: [],
      emits: ['world.observed'],
    });
    expect(agents.get('trespasser')?.tools).toEqual([]);
  });

  it('names the file, line and field of a bad agent field', async () => {
    const dir = await configWith(
      'agents/fortune-teller.yaml',
      'name: fortune-teller\nhandler: fortune-teller\ntools: oracle\n',
    );
    await expect(loadConfig(dir)).rejects.toThrow(
      /agents\/fortune-teller\.yaml:3: tools: Invalid input: expected array, received string/,
    );
  });

  it('names an unknown key with its line', async () => {
    const dir = await configWith(
      'agents/scene-whisperer.yaml',
      'name: scene-whisperer\ntools: []\npersonna: typo\n',
    );
    await expect(loadConfig(dir)).rejects.toThrow(/agents\/scene-whisperer\.yaml:3: personna: unknown field/);
  });

  it('names the line of a bad scenario value', async () => {
    const dir = await configWith(
      'scenarios/oracle-grove.yaml',
      'title: T\ngoal: G\nseed: s\ngenesis: no placeholder\ncast: [scene-whisperer]\nturns: 0\n',
    );
    const error = await loadConfig(dir).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error?.message).toMatch(/scenarios\/oracle-grove\.yaml:4: genesis: must contain "\{seed\}"/);
    expect(error?.message).toMatch(/scenarios\/oracle-grove\.yaml:6: turns: Too small/);
  });

  it('says when YAML does not parse, with the line', async () => {
    const dir = await configWith('scenarios/oracle-grove.yaml', 'title: T\ncast: [a, b\nturns: 3\n');
    await expect(loadConfig(dir)).rejects.toThrow(/scenarios\/oracle-grove\.yaml:\d+: not valid YAML/);
  });

  it('refuses an agent file whose name does not match the cast entry', async () => {
    const dir = await configWith('agents/scene-whisperer.yaml', 'name: someone-else\ntools: []\n');
    await expect(loadConfig(dir)).rejects.toThrow(
      'agents/scene-whisperer.yaml: name: is "someone-else" but the scenario casts it as "scene-whisperer"',
    );
  });

  it('says which agent file is missing', async () => {
    const dir = await configWith(
      'scenarios/oracle-grove.yaml',
      'title: T\ngoal: G\nseed: s\ngenesis: "{seed}"\ncast: [ghost]\nturns: 1\n',
    );
    await expect(loadConfig(dir)).rejects.toThrow(/agents\/ghost\.yaml: cannot read it \(ENOENT\)/);
  });
});
