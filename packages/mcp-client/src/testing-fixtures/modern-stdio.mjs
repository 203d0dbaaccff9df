// An MCP server of the 2.x SDK over stdio (`serveStdio`: the opening message picks the era), modern
// only (`reject`) or of both eras (`serve`), that appends every message it reads to a log file, one
// JSON line each: its pid, the method and id, and whether the 2026-07-28 `_meta` envelope came with
// it (with the capabilities it declared). `shout` upper-cases a text; `deploy` asks for a
// confirmation by multi-round trip (`input_required`) and answers with what the retry carried;
// `grow` adds a tool, `extra` (the server then says its tool list changed).
// Usage: node modern-stdio.mjs LOG_FILE reject|serve
import { appendFileSync } from 'node:fs';
import { inputRequired, McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const [logFile, legacy = 'reject'] = process.argv.slice(2);

function log(message) {
  const meta = message.params?._meta;
  const envelope = meta?.['io.modelcontextprotocol/protocolVersion'];
  appendFileSync(
    logFile,
    `${JSON.stringify({
      pid: process.pid,
      method: message.method ?? null,
      id: message.id ?? null,
      envelope: envelope ?? null,
      capabilities: meta?.['io.modelcontextprotocol/clientCapabilities'] ?? null,
      requestState: message.params?.requestState ?? null,
    })}\n`,
  );
}

/** The SDK's stdio transport, with every message it reads logged before the server sees it. */
class LoggingTransport {
  #wire = new StdioServerTransport();
  #onmessage;
  get onmessage() {
    return this.#onmessage;
  }
  set onmessage(handler) {
    this.#onmessage = handler;
    this.#wire.onmessage = (message, extra) => {
      log(message);
      handler?.(message, extra);
    };
  }
  get onclose() {
    return this.#wire.onclose;
  }
  set onclose(handler) {
    this.#wire.onclose = handler;
  }
  get onerror() {
    return this.#wire.onerror;
  }
  set onerror(handler) {
    this.#wire.onerror = handler;
  }
  start() {
    return this.#wire.start();
  }
  send(message, options) {
    return this.#wire.send(message, options);
  }
  close() {
    return this.#wire.close();
  }
}

const confirmation = {
  message: 'Deploy?',
  requestedSchema: {
    type: 'object',
    properties: { confirm: { type: 'boolean', default: true }, note: { type: 'string' } },
  },
};

function build() {
  const server = new McpServer({ name: 'modern-stdio', version: '1.0.0' });
  server.registerTool(
    'shout',
    { description: 'Upper-cases a text.', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
  );
  server.registerTool(
    'deploy',
    { description: 'Deploys after a confirmation.', inputSchema: z.object({ env: z.string() }) },
    async ({ env }, context) => {
      const answer = context.mcpReq.inputResponses?.confirm;
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit(confirmation) },
          requestState: `opaque:${env}`,
        });
      }
      const state = context.mcpReq.requestState();
      return { content: [{ type: 'text', text: JSON.stringify({ answer, state }) }] };
    },
  );
  server.registerTool(
    'grow',
    { description: 'Adds the tool `extra` (the list changes).', inputSchema: z.object({}) },
    async () => {
      server.registerTool(
        'extra',
        { description: 'Added by grow.', inputSchema: z.object({}) },
        async () => ({ content: [{ type: 'text', text: 'extra' }] }),
      );
      return { content: [{ type: 'text', text: 'grown' }] };
    },
  );
  return server;
}

serveStdio(build, { legacy, transport: new LoggingTransport() });
process.stdin.on('end', () => process.exit(0));
