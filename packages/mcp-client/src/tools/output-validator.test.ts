import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { shifty } from '../testing-fixtures/servers.js';
import { outputSchemasNotValidated } from './output-validator.js';

describe('outputSchemasNotValidated', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
  });

  it("keeps a server's catastrophic outputSchema pattern off the SDK Client's event loop, even after listTools", async () => {
    const hostile = `${'a'.repeat(40)}!`; // the SDK's default ajv validator: over an hour on this
    const server = shifty('s', {
      tools: [
        {
          name: 'shape',
          description: 'Answers with a hostile value.',
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } } },
        },
      ],
      results: { shape: { content: [], structuredContent: { v: hostile } } },
    });
    client = new Client(
      { name: 'test', version: '1.0.0' },
      { capabilities: {}, jsonSchemaValidator: outputSchemasNotValidated },
    );
    await client.connect(
      new StdioClientTransport({ command: server.command, args: [...(server.args ?? [])] }),
    );
    await client.listTools(); // this is where the SDK compiles output validators
    const result = await client.callTool({ name: 'shape', arguments: {} });
    expect(result.structuredContent).toEqual({ v: hostile });
  });
});
