import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readAll } from '@toolgate/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { Gateway } from '../gateway.js';
import { changingServer, scratch } from '../testing-fixtures/gateway.js';
import { startTelemetry } from './start-telemetry.js';

interface OtlpSpan {
  name: string;
  status?: { code?: number; message?: string };
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}

/** A local OTLP/HTTP receiver on loopback: every span POSTed to /v1/traces (JSON), and the service names. */
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
      const service = resource.resource.attributes.find((entry) => entry.key === 'service.name');
      services.push(service?.value.stringValue ?? '');
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

function attribute(span: OtlpSpan | undefined, key: string): unknown {
  const value = span?.attributes.find((entry) => entry.key === key)?.value;
  if (value?.intValue !== undefined) return Number(value.intValue);
  return value?.stringValue;
}

const config = (extra: string) => `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ["mine__pid"] }
stdio: desktop
ledger: ./traced.ledger.jsonl
${extra}`;

describe("the gateway's OpenTelemetry export", { timeout: 120_000 }, () => {
  const place = scratch();
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    place.remove();
  });

  it("exports a span per call to the config's OTLP/HTTP endpoint, with the MCP method, the client and the ledger seq", async () => {
    const otlp = await receiver();
    cleanups.push(otlp.close);
    const path = join(place.dir, 'traced.yaml');
    writeFileSync(
      path,
      config(`telemetry:\n  otlp_endpoint: ${otlp.origin}/v1/traces\n  service_name: my-gateway\n`),
    );
    const gateway = await Gateway.start(await loadConfig(path, {}), { runId: 'traced-run' });
    cleanups.push(() => gateway.close());
    await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} });
    await gateway.callTool({ client: 'desktop', tool: 'mine__note', parameters: { text: 'not granted' } });
    const returned = (await readAll(gateway.store.read())).filter((event) => event.kind === 'tool.returned');
    await gateway.close(); // exports what is buffered
    expect(otlp.services).toContain('my-gateway');
    const ran = otlp.spans.find((span) => span.name === 'execute_tool mine__pid');
    const refused = otlp.spans.find((span) => span.name === 'execute_tool mine__note');
    expect(attribute(ran, 'mcp.method.name')).toBe('tools/call');
    expect(attribute(ran, 'mcp.client.name')).toBe('desktop');
    expect(attribute(ran, 'toolgate.ledger.seq')).toBe(returned[0]!.seq);
    expect(attribute(ran, 'toolgate.ledger.run_id')).toBe('traced-run');
    expect(ran?.status?.code ?? 0).not.toBe(2);
    expect(refused?.status).toMatchObject({
      code: 2,
      message: expect.stringMatching(/^CAPABILITY_VIOLATION: /),
    });
    expect(attribute(refused, 'mcp.client.name')).toBe('desktop');
    expect(attribute(refused, 'toolgate.ledger.seq')).toBe(returned[1]!.seq);
  });

  it('takes the endpoint from OTEL_EXPORTER_OTLP_ENDPOINT without a telemetry key, and loads nothing without either', async () => {
    const plain = join(place.dir, 'plain.yaml');
    writeFileSync(plain, config(''));
    const loaded = await loadConfig(plain, {});
    expect(await startTelemetry(loaded, {})).toBeUndefined();
    const otlp = await receiver();
    cleanups.push(otlp.close);
    const telemetry = await startTelemetry(loaded, { OTEL_EXPORTER_OTLP_ENDPOINT: `${otlp.origin}/` });
    const observation = telemetry?.observer.callStarted({
      callId: 'c1',
      agent: 'desktop',
      tool: 'mine__pid',
      granted: ['mine__pid'],
    });
    observation?.ended({ isError: false, durationMs: 1 });
    await telemetry?.shutdown();
    expect(otlp.services).toEqual(['toolgate-gateway']);
    expect(otlp.spans.map((span) => [span.name, attribute(span, 'mcp.client.name')])).toEqual([
      ['execute_tool mine__pid', 'desktop'],
    ]);
  });

  it('names a telemetry endpoint that is not an http URL, with its line', async () => {
    const path = join(place.dir, 'bad-telemetry.yaml');
    writeFileSync(path, config('telemetry:\n  otlp_endpoint: collector:4318\n'));
    await expect(loadConfig(path, {})).rejects.toThrow(
      /bad-telemetry\.yaml:8: telemetry\.otlp_endpoint: must be an http: or https: URL of an OTLP\/HTTP traces receiver/,
    );
  });
});
