import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolgateError } from './errors.js';
import { ToolGate } from './gate.js';
import type { AgentDerivedRecord, Recorder } from './recorder.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

const tool = (name: string) =>
  defineTool({ name, description: `The ${name} tool.`, input: z.object({}), run: () => name });

function setup() {
  const events: string[] = [];
  const derived: AgentDerivedRecord[] = [];
  const recorder: Recorder = {
    toolCalled: ({ agent, tool }) => void events.push(`${agent} called ${tool}`),
    policyDecided: () => {},
    toolReturned: () => {},
    agentDerived: (record) => {
      derived.push(record);
      events.push(`${record.parent} derived ${record.agent}`);
    },
  };
  const registry = new ToolRegistry().register(tool('paint')).register(tool('look')).register(tool('burn'));
  const artist = new ToolGate(registry, { recorder }).forAgent({ name: 'artist', tools: ['paint', 'look'] });
  return { artist, events, derived };
}

describe('AgentHandle.narrow: subagents can only narrow', () => {
  it('gives a handle granted only the subset, named <parent>/sub by default, with its parent', async () => {
    const { artist } = setup();
    const looker = artist.narrow(['look']);
    expect(looker.manifest).toEqual({ name: 'artist/sub', tools: ['look'] });
    expect(looker.parent).toBe(artist);
    expect(artist.parent).toBeUndefined();
    expect(await looker.callTool('look', {})).toMatchObject({ isError: false, output: 'look' });
    const refused = await looker.callTool('paint', {});
    expect(refused).toMatchObject({ isError: true, error: { code: 'CAPABILITY_VIOLATION' } });
    expect((await looker.check('paint', {})).status).toBe('refused');
  });

  it('throws CAPABILITY_VIOLATION naming the tools and the parent when asked to widen', () => {
    const { artist } = setup();
    let thrown: unknown;
    try {
      artist.narrow(['look', 'burn', 'fly'], 'critic');
    } catch (error) {
      thrown = error;
    }
    expect(ToolgateError.is(thrown) && thrown.code).toBe('CAPABILITY_VIOLATION');
    expect((thrown as Error).message).toContain('agent "artist"');
    expect((thrown as Error).message).toContain('"burn", "fly"');
    expect((thrown as Error).message).toContain('"critic"');
    // a grandchild cannot get back what its parent lost
    expect(() => artist.narrow(['look']).narrow(['paint'])).toThrow(/cannot give derived agent/);
  });

  it('refuses a malformed name or tool list', () => {
    const { artist } = setup();
    expect(() => artist.narrow(['look'], '')).toThrow(/INVALID_DEFINITION|cannot derive/);
    expect(() => artist.narrow('look' as unknown as string[])).toThrow(/array of tool names/);
  });

  it('records the lineage once, at the first call, before its tool.called; ancestors first', async () => {
    const { artist, events, derived } = setup();
    const critic = artist.narrow(['look', 'paint'], 'critic');
    const unused = artist.narrow(['paint'], 'idle');
    const glance = critic.narrow(['look'], 'glance');
    expect(unused.manifest.name).toBe('idle');
    expect(events).toEqual([]);
    await Promise.all([glance.callTool('look', {}), glance.callTool('look', {})]);
    await critic.callTools([{ name: 'look' }]);
    expect(events).toEqual([
      'artist derived critic',
      'critic derived glance',
      'glance called look',
      'glance called look',
      'critic called look',
    ]);
    expect(derived).toEqual([
      { agent: 'critic', parent: 'artist', tools: ['look', 'paint'] },
      { agent: 'glance', parent: 'critic', tools: ['look'] },
    ]);
  });
});
