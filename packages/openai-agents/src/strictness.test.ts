import { run } from '@openai/agents';
import { assistantMessage, functionCall } from '@openai/agents/testing';
import { builtinTools } from '@toolgate/builtins';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { MemoryEnvironment } from '@toolgate/environment';
import { describe, expect, it } from 'vitest';
import { agentsTools } from './agents-tools.js';
import { ledgerEvents, recordedGate, scriptedAgent } from './test-support/fixtures.js';

describe('strict mode per tool', () => {
  it('takes every builtin in strict mode but fetch, which it builds non-strict with Agents’ reason', async () => {
    const registry = new ToolRegistry();
    for (const tool of builtinTools(new MemoryEnvironment())) registry.register(tool);
    const names = registry.names();
    const { tools, strictness } = await agentsTools(
      new ToolGate(registry).forAgent({ name: 'all', tools: names }),
    );
    expect(tools.map((tool) => tool.name)).toEqual(names);
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.strict]))).toEqual({
      read_file: true,
      write_file: true,
      list_dir: true,
      glob: true,
      search_files: true,
      shell: true,
      fetch: false,
      oracle: true,
    });
    // fetch's headers are a record: zod writes `propertyNames`, which strict mode cannot express
    expect(strictness.fetch).toEqual({ strict: false, reason: expect.stringContaining('propertyNames') });
    for (const tool of tools) {
      expect(JSON.stringify(tool.parameters)).not.toContain('~standard');
      expect(Object.getOwnPropertySymbols(tool.parameters)).toEqual([]);
    }
  });

  it('builds every tool non-strict when asked', async () => {
    const { gate } = recordedGate();
    const { tools, strictness } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['oracle'] }), {
      strict: false,
    });
    expect(tools[0]?.strict).toBe(false);
    expect(strictness.oracle).toEqual({ strict: false, reason: 'strict mode turned off' });
  });

  it('passes an optional property the strict model sent as null to the gate as absent', async () => {
    const { gate, store } = recordedGate();
    const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'teller', tools: ['oracle'] }));
    const oracle = tools[0]!;
    expect(oracle.strict).toBe(true);
    expect(oracle.parameters.required).toEqual(['seed', 'depth']);
    const { agent } = scriptedAgent('teller', tools, [
      [functionCall('oracle', { seed: 'moss', depth: null }, { callId: 'c1' })],
      [assistantMessage('ok')],
    ]);
    await run(agent, 'go', runOptions);
    const events = await ledgerEvents(store);
    expect(events[0]?.payload).toMatchObject({ parameters: { seed: 'moss' } });
    expect(events[2]?.payload).toMatchObject({ isError: false, output: { omen: 'the moss turns 1 times' } });
  });
});
