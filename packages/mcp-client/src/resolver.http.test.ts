import { drawOmen } from '@toolgate/builtins';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { type HttpChild, startHttpCli } from '@toolgate/mcp-server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPResolver } from './resolver.js';
import { toolgateMcp } from './testing-fixtures/servers.js';

describe('MCPResolver over streamable HTTP (toolgate-mcp --http)', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const server = async (extra: string[] = [], env?: NodeJS.ProcessEnv) => {
    const child = await startHttpCli(extra, env);
    cleanups.push(() => child.stop());
    return child;
  };
  const connect = async (...args: Parameters<typeof MCPResolver.connect>) => {
    const resolver = await MCPResolver.connect(...args);
    cleanups.push(() => resolver.close());
    return resolver;
  };

  it('gives the same value over HTTP as over stdio', async () => {
    const http = await server();
    const overHttp = await connect([{ name: 'http', url: http.url }]);
    const overStdio = await connect([toolgateMcp()]);
    const [a, b] = await Promise.all([
      overHttp.call('oracle', { seed: 'same' }),
      overStdio.call('oracle', { seed: 'same' }),
    ]);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a).toEqual({ omen: drawOmen('same') });
  });

  it('sends configured headers, so a bearer-token server accepts it and refuses a wrong token', async () => {
    const http = await server(['--token-env', 'ORACLE_TOKEN'], { ...process.env, ORACLE_TOKEN: 's3cret' });
    const good = await connect([
      { name: 'secured', url: http.url, headers: { Authorization: 'Bearer s3cret' } },
    ]);
    expect(await good.call('oracle', { seed: 'k' })).toEqual({ omen: drawOmen('k') });
    await expect(
      MCPResolver.connect([{ name: 'secured', url: http.url, headers: { Authorization: 'Bearer wrong' } }]),
    ).rejects.toMatchObject({
      code: 'TRANSPORT_FAILED',
      message: expect.stringContaining('MCP server "secured"'),
    });
  });

  it("sends every request through the config's own fetch, beneath the limits (one that adds a token)", async () => {
    const http = await server(['--token-env', 'ORACLE_TOKEN'], {
      ...process.env,
      ORACLE_TOKEN: 'fetched-token',
    });
    const sent: string[] = [];
    const withToken: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', 'Bearer fetched-token');
      sent.push(init?.method ?? 'GET');
      return fetch(input, { ...init, headers });
    };
    const resolver = await connect([{ name: 'fetched', url: http.url, fetch: withToken }]);
    expect(await resolver.call('oracle', { seed: 'f' })).toEqual({ omen: drawOmen('f') });
    expect(sent).toContain('POST');
  });

  it('a server that goes away gives an error result naming it; once it is back, the next call works', async () => {
    const first: HttpChild = await startHttpCli();
    const port = new URL(first.url).port;
    const resolver = await connect([{ name: 'flaky', url: first.url }]);
    const agent = new ToolGate(new ToolRegistry().setResolver(resolver)).forAgent({
      name: 'a',
      tools: ['oracle'],
    });
    await first.stop();
    const failed = await agent.callTool('oracle', { seed: 'gone' });
    expect(failed).toMatchObject({ isError: true, error: { code: 'TRANSPORT_FAILED' } });
    expect(failed.isError && failed.error.message).toContain('MCP server "flaky"');
    await server(['--port', port]);
    expect(await agent.callTool('oracle', { seed: 'back' })).toMatchObject({
      isError: false,
      output: { omen: drawOmen('back') },
    });
  });
});
