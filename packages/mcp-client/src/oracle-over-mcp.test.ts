import { drawOmen, oracleTool } from '@toolgate/builtins';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import type { ToolCalledRecord, ToolReturnedRecord } from '@toolgate/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPResolver } from './resolver.js';
import { toolgateMcp } from './testing-fixtures/servers.js';

const teller = { name: 'fortune-teller', tools: ['oracle'] };

function recording() {
  const records: unknown[] = [];
  return {
    records,
    recorder: {
      toolCalled: (record: ToolCalledRecord) => void records.push(['called', record]),
      policyDecided: (record: unknown) => void records.push(['decided', record]),
      toolReturned: (record: ToolReturnedRecord) => void records.push(['returned', record]),
    },
  };
}

describe('the oracle over MCP (toolgate-mcp over stdio)', () => {
  let resolver: MCPResolver | undefined;
  afterEach(async () => {
    await resolver?.close();
    resolver = undefined;
  });

  it('answers through a real ToolGate with the same omen as in-process', async () => {
    resolver = await MCPResolver.connect([toolgateMcp()]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { callIds: () => 'call-1' });
    const result = await gate.forAgent(teller).callTool('oracle', { seed: 'moss' });
    expect(result).toEqual({
      callId: 'call-1',
      tool: 'oracle',
      isError: false,
      output: { omen: drawOmen('moss') },
      durationMs: expect.any(Number),
    });
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('records the same records in-process and over MCP, and the same error for bad parameters', async () => {
    const inProcess = recording();
    const local = new ToolGate(new ToolRegistry().register(oracleTool()), {
      recorder: inProcess.recorder,
      callIds: () => 'c',
      clock: () => 0,
    });
    await local.forAgent(teller).callTool('oracle', { seed: 'lantern' });
    await local.forAgent(teller).callTool('oracle', { seed: 7 });

    // toolgate's own subjects, computed by the very code in-process runs use: the records then agree
    // on what each verdict judged too (a server with no subject mapping records an unknown one, null)
    resolver = await MCPResolver.connect([{ ...toolgateMcp(), subjects: 'toolgate' }]);
    const overMcp = recording();
    const remote = new ToolGate(new ToolRegistry().setResolver(resolver), {
      recorder: overMcp.recorder,
      callIds: () => 'c',
      clock: () => 0,
    });
    await remote.forAgent(teller).callTool('oracle', { seed: 'lantern' });
    await remote.forAgent(teller).callTool('oracle', { seed: 7 });
    // Core validates a resolver's parameters against the schema the server described, before policy
    // and the transport, so even the refused call writes the same records on both transports.
    expect(JSON.stringify(overMcp.records)).toBe(JSON.stringify(inProcess.records));
    expect(overMcp.records.at(-1)).toMatchObject([
      'returned',
      { isError: true, error: { code: 'INVALID_PARAMETERS' } },
    ]);
  });

  it('describes the tool as the server lists it, never as parallel-safe', async () => {
    resolver = await MCPResolver.connect([toolgateMcp()]);
    const described = await resolver.describe('oracle');
    expect(described).toEqual({
      name: 'oracle',
      description: oracleTool().description,
      inputSchema: oracleTool().inputSchema,
    });
    expect(described).not.toHaveProperty('parallelSafe');
  });

  it('refuses an ungranted tool before the transport is touched', async () => {
    resolver = await MCPResolver.connect([toolgateMcp()]);
    const touched: string[] = [];
    const observed = new Proxy(resolver, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          touched.push(String(key));
          return value.apply(target, args);
        };
      },
    });
    const gate = new ToolGate(new ToolRegistry().setResolver(observed));
    const result = await gate.forAgent({ name: 'critic', tools: [] }).callTool('oracle', { seed: 'x' });
    expect(result.isError && result.error.code).toBe('CAPABILITY_VIOLATION');
    expect(touched).toEqual([]);
  });
});
