import { drawOmen } from '@toolgate/builtins';
import type { MCPResolver } from '@toolgate/mcp-client';
import { afterEach, describe, expect, it } from 'vitest';
import { resolverFromEnv, serversFromEnv } from './from-env.js';
import { fixture, noChildren, toolgateMcp } from './test-support/servers.js';

const quoted = (words: readonly string[]) => words.map((word) => `'${word}'`).join(' ');

describe('resolverFromEnv (the config gate)', () => {
  let resolver: MCPResolver | undefined;
  afterEach(async () => {
    await resolver?.close();
    resolver = undefined;
  });

  it('is in-process by default and with MCP_ORACLE=0', async () => {
    expect(await resolverFromEnv({})).toBeUndefined();
    expect(await resolverFromEnv({ MCP_ORACLE: '0', MCP_SERVERS: '  ' })).toBeUndefined();
  });

  it('reads MCP_ORACLE as 1/true/yes or 0/false/no/empty in any case, and refuses anything else listing those', () => {
    for (const on of ['1', 'true', 'TRUE', 'Yes', ' yes ']) {
      expect(serversFromEnv({ MCP_ORACLE: on })?.map((server) => server.name)).toEqual(['oracle']);
    }
    for (const off of ['0', 'false', 'False', 'NO', '', '  ']) {
      expect(serversFromEnv({ MCP_ORACLE: off })).toBeUndefined();
    }
    expect(() => serversFromEnv({ MCP_ORACLE: 'on' })).toThrow(
      'MCP_ORACLE="on" is not understood; use 1, true or yes to serve the oracle over MCP, ' +
        'or 0, false, no or empty for in-process (any case)',
    );
  });

  it('attaches every MCP_SERVERS command, and MCP_ORACLE is ignored when MCP_SERVERS is set', async () => {
    const oracle = toolgateMcp();
    const faulty = fixture('faulty.mjs');
    const line = `${quoted([oracle.command, ...oracle.args!])} :: ${quoted([faulty.command, ...faulty.args!])}`;
    resolver = await resolverFromEnv({ MCP_SERVERS: line, MCP_ORACLE: '1' });
    expect(resolver!.servers()).toHaveLength(2);
    expect(await resolver!.call('oracle', { seed: 'gate' })).toEqual({ omen: drawOmen('gate') });
    expect(await resolver!.call('echo', { value: 'v' })).toMatchObject({ value: 'v' });
  });

  it('fails clearly, leaving nothing running, when two MCP_SERVERS serve the same tool', async () => {
    const oracle = toolgateMcp();
    const line = `${quoted([oracle.command, ...oracle.args!])} :: ${quoted([oracle.command, ...oracle.args!])}`;
    await expect(resolverFromEnv({ MCP_SERVERS: line })).rejects.toThrow(/both serve a tool named "oracle"/);
    expect(await noChildren()).toEqual([]);
  });

  it('refuses an MCP_SERVERS line with a shell operator before spawning anything', async () => {
    await expect(resolverFromEnv({ MCP_SERVERS: 'node a.js; rm -rf /' })).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: expect.stringContaining('shell operator ";"'),
    });
  });
});
