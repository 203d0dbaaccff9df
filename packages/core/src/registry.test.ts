import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CapabilityViolation, type ToolgateError } from './errors.js';
import { ToolRegistry } from './registry.js';
import type { ToolResolver } from './resolver.js';
import { defineTool } from './tool.js';

const oracle = defineTool({
  name: 'oracle',
  description: 'Draw an omen.',
  input: z.object({ seed: z.string().describe('the seed') }),
  run: ({ seed }) => ({ omen: `omen of ${seed}` }),
  parallelSafe: true,
});

const teller = { name: 'fortune-teller', tools: ['oracle'] };
const whisperer = { name: 'scene-whisperer', tools: [] as string[] };

function spyResolver(tools: Record<string, (parameters: unknown) => unknown> = {}) {
  const resolver = {
    has: vi.fn(async (name: string) => name in tools),
    describe: vi.fn(async (name: string) =>
      name in tools ? { name, description: `remote ${name}`, inputSchema: { type: 'object' } } : undefined,
    ),
    call: vi.fn(async (name: string, parameters: unknown) => tools[name]!(parameters) as never),
  } satisfies ToolResolver;
  return resolver;
}

describe('ToolRegistry', () => {
  it('refuses a second tool of the same name instead of overwriting it', () => {
    const registry = new ToolRegistry().register(oracle);
    expect(() => registry.register(oracle)).toThrow('a tool named "oracle" is already registered');
    expect(registry.names()).toEqual(['oracle']);
  });

  it('runs a granted in-process tool', async () => {
    const registry = new ToolRegistry().register(oracle);
    await expect(registry.call('fortune-teller', teller, 'oracle', { seed: 'moss' })).resolves.toEqual({
      omen: 'omen of moss',
    });
  });

  it('raises CapabilityViolation before any resolver method is touched', async () => {
    const resolver = spyResolver({ oracle: () => ({ omen: 'remote' }) });
    const registry = new ToolRegistry().setResolver(resolver);
    const error = await registry.call('scene-whisperer', whisperer, 'oracle', { seed: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(CapabilityViolation);
    expect(error).toMatchObject({
      code: 'CAPABILITY_VIOLATION',
      agent: 'scene-whisperer',
      tool: 'oracle',
      granted: [],
    });
    expect(error.message).toBe(
      'agent "scene-whisperer" is not granted tool "oracle" (granted: none); add it to the agent manifest\'s "tools" to allow it',
    );
    expect(resolver.has).not.toHaveBeenCalled();
    expect(resolver.describe).not.toHaveBeenCalled();
    expect(resolver.call).not.toHaveBeenCalled();
  });

  it.each(['Oracle', 'oracle\u200b', ' oracle', 'oracle ', 'ORACLE', 'oracl'])(
    'matches names exactly: %j is not "oracle"',
    async (name) => {
      const registry = new ToolRegistry().register(oracle);
      await expect(registry.call('fortune-teller', teller, name, { seed: 'x' })).rejects.toBeInstanceOf(
        CapabilityViolation,
      );
    },
  );

  it('does not let a granted near-miss name reach the real tool', async () => {
    const registry = new ToolRegistry().register(oracle);
    const error = await registry.call('sly', { tools: ['Oracle'] }, 'Oracle', { seed: 'x' }).then(
      () => undefined,
      (caught: ToolgateError) => caught,
    );
    expect(error?.code).toBe('UNKNOWN_TOOL');
  });

  it('asks the resolver for a granted tool that is not in-process', async () => {
    const resolver = spyResolver({ oracle: (parameters) => ({ remote: parameters }) });
    const registry = new ToolRegistry().setResolver(resolver);
    await expect(registry.call('fortune-teller', teller, 'oracle', { seed: 'x' })).resolves.toEqual({
      remote: { seed: 'x' },
    });
    expect(resolver.call).toHaveBeenCalledWith(
      'oracle',
      { seed: 'x' },
      expect.objectContaining({ agent: 'fortune-teller', callId: expect.any(String) }),
    );
  });

  it('prefers the in-process tool over the resolver', async () => {
    const resolver = spyResolver({ oracle: () => ({ omen: 'remote' }) });
    const registry = new ToolRegistry().register(oracle).setResolver(resolver);
    await expect(registry.call('fortune-teller', teller, 'oracle', { seed: 'x' })).resolves.toEqual({
      omen: 'omen of x',
    });
    expect(resolver.call).not.toHaveBeenCalled();
  });

  it('raises UNKNOWN_TOOL for a granted tool nobody serves', async () => {
    const registry = new ToolRegistry().setResolver(spyResolver());
    const error = await registry.call('fortune-teller', teller, 'oracle', {}).then(
      () => undefined,
      (caught: ToolgateError) => caught,
    );
    expect(error?.code).toBe('UNKNOWN_TOOL');
    expect(error?.message).toBe(
      'no tool named "oracle" is registered in-process or served by the attached resolver; ' +
        'register it, or attach the server that provides it',
    );
  });

  it('says who was asked when a granted tool is not served: the resolver, or that there is none', async () => {
    const summarized = Object.assign(spyResolver(), {
      servingSummary: () => 'the MCP servers attached ("files": read_file)',
    });
    const asked = await new ToolRegistry()
      .setResolver(summarized)
      .call('fortune-teller', teller, 'oracle', {})
      .catch((caught: ToolgateError) => caught);
    expect(asked).toMatchObject({
      code: 'UNKNOWN_TOOL',
      message:
        'no tool named "oracle" is registered in-process or served by the MCP servers attached ("files": read_file); ' +
        'register it, or attach the server that provides it',
    });
    const alone = await new ToolRegistry()
      .call('fortune-teller', teller, 'oracle', {})
      .catch((caught: ToolgateError) => caught);
    expect(alone).toMatchObject({
      code: 'UNKNOWN_TOOL',
      message: expect.stringContaining(
        'no tool named "oracle" is registered in-process, and no resolver is attached to serve it',
      ),
    });
  });

  it('validates in-process parameters and refuses a non-object for a remote tool', async () => {
    const registry = new ToolRegistry().register(oracle).setResolver(spyResolver({ echo: (p) => p }));
    await expect(registry.call('a', teller, 'oracle', { seed: 1 })).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
    });
    await expect(registry.call('a', { tools: ['echo'] }, 'echo', [1, 2])).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
      message: expect.stringContaining('expected object'),
    });
  });

  it('validates a remote tool against the schema it described, with the in-process message, before calling it', async () => {
    const resolver = {
      has: async (name: string) => name === 'oracle',
      describe: async () => ({ name: 'oracle', description: 'remote', inputSchema: oracle.inputSchema }),
      call: vi.fn(async () => ({ omen: 'remote' })),
    } satisfies ToolResolver;
    const remote = new ToolRegistry().setResolver(resolver);
    const local = new ToolRegistry().register(oracle);
    for (const bad of [{}, { seed: 3 }, { seed: 'x', mood: 'dark' }]) {
      const remoteError = await remote
        .call('a', teller, 'oracle', bad)
        .catch((error: ToolgateError) => error);
      const localError = await local.call('a', teller, 'oracle', bad).catch((error: ToolgateError) => error);
      expect(remoteError).toMatchObject({
        code: 'INVALID_PARAMETERS',
        message: (localError as ToolgateError).message,
      });
    }
    expect(resolver.call).not.toHaveBeenCalled();
    await expect(remote.call('a', teller, 'oracle', { seed: 'x' })).resolves.toEqual({ omen: 'remote' });
  });

  it('refuses a call whose remote schema cannot be read, rather than letting it through unvalidated', async () => {
    const resolver = {
      has: async () => true,
      describe: async (name: string) => ({ name, description: 'd', inputSchema: { $ref: '#/nowhere' } }),
      call: vi.fn(async () => ({ ok: true })),
    } satisfies ToolResolver;
    const registry = new ToolRegistry().setResolver(resolver);
    await expect(registry.call('a', { tools: ['odd'] }, 'odd', { any: 1 })).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: expect.stringContaining('its $ref "#/nowhere" points at nothing'),
    });
    expect(resolver.call).not.toHaveBeenCalled();
  });

  it('wraps a throwing tool and refuses a non-JSON output', async () => {
    const registry = new ToolRegistry()
      .register(
        defineTool({
          name: 'boom',
          description: 'd',
          input: z.object({}),
          run: () => {
            throw new Error('kaput');
          },
        }),
      )
      .register(
        defineTool({ name: 'big', description: 'd', input: z.object({}), run: async () => ({ n: 1n }) }),
      );
    await expect(registry.call('a', { tools: ['boom'] }, 'boom', {})).rejects.toMatchObject({
      code: 'TOOL_FAILED',
      message: 'tool "boom" failed: kaput',
    });
    await expect(registry.call('a', { tools: ['big'] }, 'big', {})).rejects.toMatchObject({
      code: 'INVALID_OUTPUT',
      message: expect.stringContaining('the output of tool "big" is not JSON at $.n'),
    });
  });

  it('describes in-process tools first, falls back to the resolver, and skips unknown names', async () => {
    const resolver = spyResolver({ oracle: () => null, weather: () => null });
    const registry = new ToolRegistry().register(oracle).setResolver(resolver);
    expect(await registry.describe(['oracle', 'weather', 'nothing'])).toBe(
      '- oracle: Draw an omen.\n- weather: remote weather',
    );
    expect(resolver.describe).not.toHaveBeenCalledWith('oracle');
    expect(await registry.has('weather')).toBe(true);
    expect(await registry.has('nothing')).toBe(false);
  });
});
