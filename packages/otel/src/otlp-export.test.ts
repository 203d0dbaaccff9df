import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { observedGate } from './test-support/gate.js';
import { telemetry } from './test-support/telemetry.js';

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}
interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  status?: { code?: number; message?: string };
  attributes: OtlpAttribute[];
}

/** A local OTLP/HTTP receiver: every span POSTed to /v1/traces, as JSON. */
async function receiver() {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
    };
    for (const resource of body.resourceSpans)
      for (const scope of resource.scopeSpans) spans.push(...scope.spans);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    paths,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('spans through a real OTLP/HTTP exporter to a local receiver', () => {
  it('delivers a refused call as an ERROR span under its parent, with the ledger seq', async () => {
    const otlp = await receiver();
    cleanups.push(otlp.close);
    const sdk = telemetry(new OTLPTraceExporter({ url: otlp.url }));
    cleanups.push(sdk.close);
    const { gate, events } = observedGate(sdk);
    const handle = gate.forAgent({ name: 'teller', tools: ['oracle'] });
    await sdk.tracer.startActiveSpan('invoke_agent teller', async (parent) => {
      await handle.callTool('write_note', { text: 'not granted' });
      parent.end();
    });
    await vi.waitFor(() => expect(otlp.spans.map((span) => span.name)).toContain('invoke_agent teller'), {
      timeout: 30_000,
      interval: 50,
    });
    expect(otlp.paths[0]).toBe('POST /v1/traces application/json');
    const parent = otlp.spans.find((span) => span.name === 'invoke_agent teller')!;
    const refused = otlp.spans.find((span) => span.name === 'execute_tool write_note')!;
    expect(refused.parentSpanId).toBe(parent.spanId);
    expect(refused.status?.code).toBe(2); // STATUS_CODE_ERROR
    expect(refused.status?.message).toMatch(/^CAPABILITY_VIOLATION: /);
    const returned = (await events()).find((event) => event.kind === 'tool.returned')!;
    expect(attribute(refused, 'toolgate.ledger.seq')).toBe(returned.seq);
    expect(attribute(refused, 'gen_ai.tool.name')).toBe('write_note');
    expect(attribute(refused, 'error.type')).toBe('CAPABILITY_VIOLATION');
  });
});
