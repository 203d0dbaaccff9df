import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { NotificationGuard, TokenBucket } from './notification-guard.js';

/**
 * A server written as raw JSON-RPC on the SDK's in-memory transport, which delivers each message
 * synchronously: it answers `tools/call` with a progress notification and the response in the same
 * tick, as a stdio server's two lines arrive in one chunk.
 */
async function clientOfEagerServer(guarded: boolean): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (message: JSONRPCMessage) => {
    if (!('id' in message) || !('method' in message)) return;
    if (message.method === 'initialize') {
      void serverSide.send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: (message.params as { protocolVersion: string }).protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'eager', version: '1' },
        },
      });
    }
    if (message.method === 'tools/call') {
      const token = (message.params as { _meta?: { progressToken?: string | number } })._meta?.progressToken;
      void serverSide.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token!, progress: 1, total: 1, message: 'the only step' },
      });
      void serverSide.send({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: 'done' }] },
      });
    }
  };
  await serverSide.start();
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(guarded ? new NotificationGuard(clientSide, new TokenBucket(20)) : clientSide);
  return client;
}

describe('NotificationGuard', () => {
  it('hands a progress notification sent just before a response to its handler before the response settles', async () => {
    const seen: string[] = [];
    const client = await clientOfEagerServer(true);
    await client.callTool({ name: 'step', arguments: {} }, undefined, {
      onprogress: (progress) => seen.push(progress.message ?? ''),
    });
    expect(seen).toEqual(['the only step']);
    await client.close();
  });

  it('is needed: without it the SDK settles the response first and drops that progress', async () => {
    const seen: string[] = [];
    const client = await clientOfEagerServer(false);
    await client.callTool({ name: 'step', arguments: {} }, undefined, {
      onprogress: (progress) => seen.push(progress.message ?? ''),
    });
    expect(seen).toEqual([]);
    await client.close();
  });
});
