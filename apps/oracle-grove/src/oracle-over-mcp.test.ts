import { drawOmen, oracleTool } from '@toolgate/builtins';
import { RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { MCPResolver } from '@toolgate/mcp-client';
import { afterEach, describe, expect, it } from 'vitest';
import { resolverFromEnv } from './from-env.js';
import { alive, gone } from './test-support/servers.js';

const teller = { name: 'fortune-teller', tools: ['oracle'] };

// Moved from mcp-client's oracle-over-mcp.test.ts with the MCP_ORACLE gate.
describe('the oracle over MCP, chosen by MCP_ORACLE (toolgate-mcp over stdio)', () => {
  let resolver: MCPResolver | undefined;
  afterEach(async () => {
    await resolver?.close();
    resolver = undefined;
  });

  it('knows the oracle over MCP touches nothing, as in-process, so a rule on paths never catches it', async () => {
    resolver = await resolverFromEnv({ MCP_ORACLE: '1' });
    const policy = new RulePolicy({ default: 'allow', rules: [{ paths: ['.secret'], decision: 'deny' }] });
    const remote = new ToolGate(new ToolRegistry().setResolver(resolver!), { policy });
    const local = new ToolGate(new ToolRegistry().register(oracleTool()), { policy });
    expect((await remote.forAgent(teller).callTool('oracle', { seed: 'moss' })).isError).toBe(false);
    expect((await local.forAgent(teller).callTool('oracle', { seed: 'moss' })).isError).toBe(false);
    expect(await resolver!.subject('oracle', { seed: 'moss' })).toEqual({});
  });

  it('is chosen by MCP_ORACLE=1, and closing it stops the child process', async () => {
    expect(await resolverFromEnv({})).toBeUndefined();
    resolver = await resolverFromEnv({ MCP_ORACLE: '1' });
    expect(resolver).toBeInstanceOf(MCPResolver);
    const output = await resolver!.call('oracle', { seed: 'tide' });
    expect(output).toEqual({ omen: drawOmen('tide') });
    const pid = (await resolver!.pid('oracle'))!;
    expect(alive(pid)).toBe(true);
    await resolver!.close();
    expect(await gone(pid)).toBe(true);
  });
});
