import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { McpProtocol, StdioServerConfig } from './server-config.js';
import { alive, connectClosingAfterEach, fixture } from './testing-fixtures/servers.js';

/** One message a fixture server read, as it logged it. */
interface Seen {
  pid: number;
  method: string | null;
  id: string | number | null;
  envelope?: string | null;
  capabilities?: Record<string, unknown> | null;
  requestState?: unknown;
}

const logs = mkdtempSync(join(tmpdir(), 'stdio-eras-'));
afterAll(() => rmSync(logs, { recursive: true, force: true }));
let logCount = 0;

/** A fixture server logging what it reads to a fresh file; `seen()` reads the file back. */
function logged(script: string, extra: string[], options: Partial<StdioServerConfig>) {
  logCount += 1;
  const file = join(logs, `${logCount}.jsonl`);
  const config = fixture(script, options);
  return {
    config: { ...config, args: [...(config.args ?? []), file, ...extra] },
    seen: (): Seen[] => {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        // nothing read yet
      }
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Seen);
    },
  };
}

/** A 2.x SDK server over `serveStdio`: modern only (`reject`) or of both eras (`serve`). */
const modernServer = (
  legacy: 'reject' | 'serve',
  protocol?: McpProtocol,
  options: Partial<StdioServerConfig> = {},
) => logged('modern-stdio.mjs', [legacy], { name: 'modern', ...(protocol ? { protocol } : {}), ...options });

/** A 1.x SDK server: 2025-11-25 only; `strict` exits on a request before `initialize`. */
const legacyServer = (protocol: McpProtocol, strict = false) =>
  logged('legacy-stdio.mjs', strict ? ['strict'] : [], { name: 'legacy', protocol });

/** The pids that logged, in the order they first read something. */
const pidsOf = (seen: Seen[]) => [...new Set(seen.map((message) => message.pid))];

describe('MCPResolver picks the MCP era with each stdio server by its protocol', { timeout: 120_000 }, () => {
  const connect = connectClosingAfterEach();

  it("speaks 2026-07-28 with '2026-07-28': discovered in place, no initialize, every request enveloped", async () => {
    const server = modernServer('reject', '2026-07-28');
    const resolver = await connect([server.config]);
    expect(await resolver.has('shout')).toBe(true);
    expect(JSON.stringify(await resolver.call('shout', { text: 'modern' }))).toContain('MODERN');
    const seen = server.seen();
    expect(pidsOf(seen)).toHaveLength(1); // no second process for a pinned revision
    expect(seen[0]?.method).toBe('server/discover');
    expect(seen.map((message) => message.method)).not.toContain('initialize');
    expect(seen.map((message) => message.method)).not.toContain('notifications/initialized');
    expect(seen.map((message) => message.method)).toEqual(
      expect.arrayContaining(['tools/list', 'tools/call']),
    );
    const requests = seen.filter((message) => message.id !== null);
    for (const request of requests) expect(request.envelope).toBe('2026-07-28');
  });

  it("speaks 2026-07-28 with 'auto', after asking a sibling that is stopped before the session starts", async () => {
    const server = modernServer('reject', 'auto');
    const resolver = await connect([server.config]);
    expect(JSON.stringify(await resolver.call('shout', { text: 'auto' }))).toContain('AUTO');
    const seen = server.seen();
    const [sibling, session] = pidsOf(seen);
    expect(seen.filter((message) => message.pid === sibling).map((message) => message.method)).toEqual([
      'server/discover',
    ]);
    expect(alive(sibling!)).toBe(false);
    const spoken = seen.filter((message) => message.pid === session);
    expect(spoken.map((message) => message.method)).not.toContain('initialize');
    expect(spoken.map((message) => message.method)).toEqual(
      expect.arrayContaining(['tools/list', 'tools/call']),
    );
    for (const request of spoken.filter((message) => message.id !== null))
      expect(request.envelope).toBe('2026-07-28');
  });

  it("uses 2026-07-28, the newest, with 'auto' and a server of both eras", async () => {
    const server = modernServer('serve', 'auto');
    const resolver = await connect([server.config]);
    await resolver.call('shout', { text: 'both' });
    const methods = server.seen().map((message) => message.method);
    expect(methods).not.toContain('initialize');
    expect(methods).toContain('tools/call');
  });

  it('answers an input_required round over stdio through onServerRequest, requestState unchanged', async () => {
    const asked: { method: string; params?: Record<string, unknown> }[] = [];
    const server = modernServer('reject', '2026-07-28', {
      onServerRequest: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { note: 'ship it' } };
      },
    });
    const resolver = await connect([server.config]);
    expect(await resolver.call('deploy', { env: 'prod' })).toEqual({
      answer: { action: 'accept', content: { note: 'ship it', confirm: true } },
      state: 'opaque:prod',
    });
    expect(asked.map((request) => [request.method, request.params?.message])).toEqual([
      ['elicitation/create', 'Deploy?'],
    ]);
    const calls = server.seen().filter((message) => message.method === 'tools/call');
    expect(calls.map((call) => call.requestState)).toEqual([null, 'opaque:prod']);
    expect(calls[0]?.capabilities).toMatchObject({ elicitation: { form: { applyDefaults: true } } });
  });

  it('hears list_changed in 2026-07-28 through one subscriptions/listen, and lists the tools again', async () => {
    const server = modernServer('reject', '2026-07-28');
    const resolver = await connect([server.config]);
    expect(await resolver.has('extra')).toBe(false);
    await resolver.call('grow', {});
    await vi.waitFor(async () => expect(await resolver.has('extra')).toBe(true), { timeout: 30_000 });
    const seen = server.seen();
    const listens = seen.filter((message) => message.method === 'subscriptions/listen');
    expect(listens).toHaveLength(1);
    expect(listens[0]?.envelope).toBe('2026-07-28');
    expect(seen.filter((message) => message.method === 'tools/list').length).toBeGreaterThanOrEqual(2);
  });

  it("falls back to 2025-11-25 with 'auto' and a 1.x server: the sibling is asked, the session initializes", async () => {
    const server = legacyServer('auto');
    const resolver = await connect([server.config]);
    expect(JSON.stringify(await resolver.call('shout', { text: 'old' }))).toContain('OLD');
    const seen = server.seen();
    const [sibling, session] = pidsOf(seen);
    expect(seen.filter((message) => message.pid === sibling).map((message) => message.method)).toEqual([
      'server/discover',
    ]);
    const spoken = seen.filter((message) => message.pid === session).map((message) => message.method);
    expect(spoken.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    expect(spoken).toContain('tools/call');
  });

  it("falls back to 2025-11-25 with 'auto' and a server that exits on a request before initialize", async () => {
    const server = legacyServer('auto', true);
    const resolver = await connect([server.config]);
    expect(JSON.stringify(await resolver.call('shout', { text: 'strict' }))).toContain('STRICT');
    const [sibling, session] = pidsOf(server.seen());
    expect(sibling).not.toBe(session);
    expect(server.seen().filter((message) => message.pid === session)[0]?.method).toBe('initialize');
  });

  it("fails the connect with '2026-07-28' and a 1.x server, naming the server and the protocol key", async () => {
    const server = legacyServer('2026-07-28');
    const failure = await connect([server.config]).catch((error: unknown) => error);
    expect(ToolgateError.is(failure) && failure.code).toBe('TRANSPORT_FAILED');
    const message = (failure as Error).message;
    expect(message).toContain('MCP server "legacy"');
    expect(message).toContain('does not offer MCP 2026-07-28 (server/discover answered error -32601');
    expect(message).toContain("its config's protocol is '2026-07-28'");
    expect(server.seen().map((seen) => seen.method)).toEqual(['server/discover']);
  });

  it('keeps 2025-11-25 by default over stdio: initialize first, no probe, no envelope', async () => {
    const server = modernServer('serve');
    const resolver = await connect([server.config]);
    await resolver.call('shout', { text: 'default' });
    const seen = server.seen();
    expect(pidsOf(seen)).toHaveLength(1);
    expect(seen[0]?.method).toBe('initialize');
    expect(seen.map((message) => message.method)).not.toContain('server/discover');
    expect(seen.every((message) => message.envelope === null)).toBe(true);
  });
});
