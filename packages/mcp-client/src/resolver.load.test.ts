import { drawOmen } from '@toolgate/builtins';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPResolver } from './resolver.js';
import { childPids, noChildren, toolgateMcp } from './testing-fixtures/servers.js';

describe('MCPResolver under load (toolgate-mcp over stdio)', () => {
  let resolver: MCPResolver | undefined;
  afterEach(async () => {
    await resolver?.close();
    resolver = undefined;
  });

  it('makes 1,000 sequential calls over one session with no growth in handles or child processes', async () => {
    resolver = await MCPResolver.connect([toolgateMcp()]);
    const agent = new ToolGate(new ToolRegistry().setResolver(resolver)).forAgent({
      name: 'a',
      tools: ['oracle'],
    });
    await agent.callTool('oracle', { seed: 'warm-up' });
    const pid = await resolver.pid('toolgate-mcp');
    const handlesBefore = process.getActiveResourcesInfo().length;
    const childrenBefore = childPids();
    let failures = 0;
    for (let index = 0; index < 1000; index++) {
      const result = await agent.callTool('oracle', { seed: `seed-${index}` });
      if (result.isError || (result.output as { omen: string }).omen !== drawOmen(`seed-${index}`))
        failures += 1;
    }
    expect(failures).toBe(0);
    expect(await resolver.pid('toolgate-mcp')).toBe(pid);
    expect(childPids()).toEqual(childrenBefore);
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(handlesBefore);
    await resolver.close();
    expect(await noChildren()).toEqual([]);
  });

  it('answers 50 concurrent calls, each with its own result', async () => {
    resolver = await MCPResolver.connect([toolgateMcp()]);
    const seeds = Array.from({ length: 50 }, (_, index) => `concurrent-${index}`);
    const outputs = await Promise.all(seeds.map((seed) => resolver!.call('oracle', { seed })));
    expect(outputs).toEqual(seeds.map((seed) => ({ omen: drawOmen(seed) })));
    expect(childPids()).toHaveLength(1);
  });
});
