import { inputRequired, McpServer } from '@modelcontextprotocol/server';
import { ToolgateError } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MCPResolver } from './resolver.js';
import type { HttpServerConfig } from './server-config.js';
import { type ModernUpstream, modernUpstream } from './testing-fixtures/modern-upstream.js';
import { fixture } from './testing-fixtures/servers.js';
import { maxInputRounds } from './transport/input-rounds.js';

const confirmation = {
  message: 'Deploy?',
  requestedSchema: {
    type: 'object' as const,
    properties: {
      confirm: { type: 'boolean' as const, default: true },
      note: { type: 'string' as const },
    },
  },
};

/**
 * A 2026-07-28 server whose `deploy` asks for a confirmation by multi-round trip (an elicitation and
 * an opaque `requestState`) and answers with what the retry carried; `stubborn` asks forever.
 */
function deployServer(): McpServer {
  const server = new McpServer({ name: 'deploying', version: '1.0.0' });
  server.registerTool(
    'deploy',
    { description: 'Deploys after a confirmation.', inputSchema: z.object({ env: z.string() }) },
    async ({ env }, context) => {
      const answer = context.mcpReq.inputResponses?.confirm;
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit(confirmation) },
          requestState: `opaque:${env}:\u00e9=`,
        }) as never;
      }
      const state = context.mcpReq.requestState();
      return { content: [{ type: 'text', text: JSON.stringify({ answer, state }) }] };
    },
  );
  server.registerTool(
    'stubborn',
    { description: 'Never satisfied.', inputSchema: z.object({}) },
    async () =>
      inputRequired({
        inputRequests: { again: inputRequired.elicit(confirmation) },
        requestState: 'again',
      }) as never,
  );
  return server;
}

describe('MCPResolver answers input_required results (MCP 2026-07-28 multi-round trip)', {
  timeout: 120_000,
}, () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  async function attach(upstream: ModernUpstream, config: Partial<HttpServerConfig> = {}) {
    cleanup.push(() => upstream.close());
    const resolver = await MCPResolver.connect([{ name: 'upstream', url: upstream.url, ...config }]);
    cleanup.push(() => resolver.close());
    return resolver;
  }

  it('asks onServerRequest, and calls again with its answer, defaults applied, and the requestState unchanged', async () => {
    const upstream = await modernUpstream(deployServer);
    const asked: { method: string; params?: Record<string, unknown> }[] = [];
    const resolver = await attach(upstream, {
      onServerRequest: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { note: 'ship it' } };
      },
    });
    const result = await resolver.call('deploy', { env: 'prod' });
    expect(asked.map((request) => [request.method, request.params?.message])).toEqual([
      ['elicitation/create', 'Deploy?'],
    ]);
    expect(result).toEqual({
      answer: { action: 'accept', content: { note: 'ship it', confirm: true } },
      state: 'opaque:prod:\u00e9=',
    });
    const [first, retry] = upstream.calls();
    expect(retry?.body.params?.requestState).toBe('opaque:prod:\u00e9=');
    expect(retry?.body.params?.arguments).toEqual({ env: 'prod' });
    expect(retry?.body.id).not.toEqual(first?.body.id);
    expect(first?.body.params?.requestState).toBeUndefined();
  });

  it('declares elicitation, in form mode with defaults applied, when its config answers the server', async () => {
    const upstream = await modernUpstream(deployServer);
    await attach(upstream, { onServerRequest: async () => ({ action: 'cancel' }) });
    const requests = upstream.received.filter((request) => request.body.id !== undefined);
    const capabilities = requests.map(
      (request) =>
        (request.body.params?._meta as Record<string, unknown> | undefined)?.[
          'io.modelcontextprotocol/clientCapabilities'
        ],
    );
    expect(capabilities.length).toBeGreaterThan(0);
    for (const declared of capabilities) {
      expect(declared).toMatchObject({ elicitation: { form: { applyDefaults: true } } });
    }
  });

  it('declines the elicitation when nobody answers for it, and still carries the requestState back', async () => {
    // The SDK's server asks only what the client declared; a careless server asks anyway.
    const upstream = await modernUpstream(deployServer, (body) => {
      if (body.method !== 'tools/call') return undefined;
      const { inputResponses, requestState } = body.params ?? {};
      if (inputResponses === undefined) {
        return {
          resultType: 'input_required',
          inputRequests: {
            confirm: { method: 'elicitation/create', params: { mode: 'form', ...confirmation } },
          },
          requestState: 'careless',
        };
      }
      return {
        content: [{ type: 'text', text: JSON.stringify({ answer: inputResponses, state: requestState }) }],
      };
    });
    const resolver = await attach(upstream);
    const result = await resolver.call('deploy', { env: 'staging' });
    expect(result).toEqual({ answer: { confirm: { action: 'decline' } }, state: 'careless' });
  });

  it(`gives up with TOOL_FAILED, naming server and tool, when the server still asks after ${maxInputRounds} rounds`, async () => {
    const upstream = await modernUpstream(deployServer);
    const resolver = await attach(upstream, {
      onServerRequest: async () => ({ action: 'accept', content: {} }),
    });
    const failure = await resolver.call('stubborn', {}).catch((error: unknown) => error);
    expect(ToolgateError.is(failure) && failure.code).toBe('TOOL_FAILED');
    expect((failure as Error).message).toContain('MCP server "upstream", in a call to "stubborn"');
    expect((failure as Error).message).toContain(`after ${maxInputRounds} rounds`);
    expect(upstream.calls()).toHaveLength(maxInputRounds + 1);
  });
});

describe('MCPResolver applies elicitation defaults for a 2025-11-25 server (SEP-1034)', {
  timeout: 120_000,
}, () => {
  it("fills the requested schema's defaults into an accepted answer that leaves them out", async () => {
    const resolver = await MCPResolver.connect([
      fixture('eliciting.mjs', {
        onServerRequest: async () => ({ action: 'accept', content: { guests: 4 } }),
      }),
    ]);
    try {
      const answer = await resolver.call('book', {});
      expect(answer).toEqual({
        action: 'accept',
        content: { name: 'Ada', guests: 4, seating: 'terrace', confirmed: true },
      });
    } finally {
      await resolver.close();
    }
  });
});
