import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServerTelemetry } from './telemetry.js';
import { cliPath } from './testing-fixtures/cli.js';

interface OtlpSpan {
  name: string;
  status?: { code?: number };
  attributes: { key: string; value: { stringValue?: string } }[];
}

/** A local OTLP/HTTP receiver on loopback: the spans and service names POSTed to it. */
async function receiver() {
  const spans: OtlpSpan[] = [];
  const services: string[] = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      resourceSpans: {
        resource: { attributes: OtlpSpan['attributes'] };
        scopeSpans: { spans: OtlpSpan[] }[];
      }[];
    };
    for (const resource of body.resourceSpans) {
      services.push(
        resource.resource.attributes.find((entry) => entry.key === 'service.name')?.value.stringValue ?? '',
      );
      for (const scope of resource.scopeSpans) spans.push(...scope.spans);
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    spans,
    services,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("toolgate-mcp's OpenTelemetry export", () => {
  it('loads nothing and exports nothing without an OTLP endpoint in the environment', async () => {
    expect(await startServerTelemetry({})).toBeUndefined();
  });

  it('exports each tools/call as a span to OTEL_EXPORTER_OTLP_ENDPOINT, a refusal as ERROR', async () => {
    const otlp = await receiver();
    cleanups.push(otlp.close);
    const client = new Client({ name: 'traced', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath(), '--tools', 'oracle'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OTEL_EXPORTER_OTLP_ENDPOINT: otlp.origin },
        stderr: 'ignore',
      }),
    );
    await client.callTool({ name: 'oracle', arguments: { seed: 'moss' } });
    await client.callTool({ name: 'secret', arguments: {} });
    await client.close(); // the server exports what is buffered before it exits
    await vi.waitFor(() => expect(otlp.spans).toHaveLength(2), { timeout: 30_000, interval: 50 });
    expect(otlp.services).toContain('toolgate-mcp');
    const byName = new Map(otlp.spans.map((span) => [span.name, span]));
    const method = (span: OtlpSpan | undefined) =>
      span?.attributes.find((entry) => entry.key === 'mcp.method.name')?.value.stringValue;
    expect(method(byName.get('execute_tool oracle'))).toBe('tools/call');
    expect(byName.get('execute_tool oracle')?.status?.code ?? 0).not.toBe(2);
    expect(byName.get('execute_tool secret')?.status?.code).toBe(2);
  });
});
