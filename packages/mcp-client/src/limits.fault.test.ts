import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerConfig } from './server-config.js';
import { type HostileHttp, startHostileHttp } from './testing-fixtures/hostile-http.js';
import { fixture } from './testing-fixtures/servers.js';

const here = dirname(fileURLToPath(import.meta.url));
const clientScript = join(here, 'testing-fixtures', 'small-heap-client.mjs');
const builtEntry = join(here, '..', 'dist', 'index.js');

interface Outcome {
  stage: 'attach' | 'call';
  ok: boolean;
  code?: string;
  message?: string;
  messageChars?: number;
  messageTail?: string;
  outputChars?: number;
  heapPeakMiB: number;
  maxRssMiB: number;
}

/** Runs the built client in a child with a 256 MB heap; resolves with what it printed, or rejects if it died. */
function smallHeapClient(spec: { server: McpServerConfig; call?: { tool: string; parameters?: object } }) {
  if (!existsSync(builtEntry)) {
    throw new Error(
      `build @toolgate/mcp-client first (${builtEntry} is missing): pnpm build --filter @toolgate/mcp-client`,
    );
  }
  return new Promise<Outcome>((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=256', clientScript, JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      if (code !== 0) {
        reject(new Error(`the client died (exit ${code}, signal ${signal}); stderr: ${stderr}`));
        return;
      }
      const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!) as Outcome;
      // Well inside the 256 MB heap (sampled every 5 ms, so a lower bound on the true peak).
      if (outcome.heapPeakMiB >= 200)
        reject(new Error(`the client's heap reached ${outcome.heapPeakMiB} MiB`));
      resolve(outcome);
    });
  });
}

const overMessageLimit =
  /MCP server "hostile.*" failed during .*: it sent a message larger than 4 MiB \(limits\.maxMessageBytes\)/;

describe('a hostile server cannot make a 256 MB client run out of memory (the client runs in a child process)', () => {
  describe('over stdio', () => {
    it('a 9 MB result fails the call with the per-message limit named', async () => {
      const outcome = await smallHeapClient({ server: fixture('hostile.mjs'), call: { tool: 'big_result' } });
      expect(outcome).toMatchObject({ stage: 'call', ok: false, code: 'TRANSPORT_FAILED' });
      expect(outcome.message).toMatch(overMessageLimit);
    }, 120_000);

    it('a 9 MB error fails the call with the per-message limit named', async () => {
      const outcome = await smallHeapClient({ server: fixture('hostile.mjs'), call: { tool: 'big_error' } });
      expect(outcome).toMatchObject({ stage: 'call', ok: false, code: 'TRANSPORT_FAILED' });
      expect(outcome.message).toMatch(overMessageLimit);
    }, 120_000);

    it('a line that never ends fails the call at the per-message limit', async () => {
      const outcome = await smallHeapClient({
        server: fixture('hostile.mjs'),
        call: { tool: 'unterminated' },
      });
      expect(outcome).toMatchObject({ stage: 'call', ok: false, code: 'TRANSPORT_FAILED' });
      expect(outcome.message).toMatch(overMessageLimit);
    }, 120_000);

    it('a thousand tools/list pages just under the SDK line limit fail the attach at the per-message limit', async () => {
      const outcome = await smallHeapClient({
        server: fixture('hostile.mjs', {
          args: [join(here, 'testing-fixtures', 'hostile.mjs'), 'huge-pages'],
        }),
      });
      expect(outcome).toMatchObject({ stage: 'attach', ok: false, code: 'TRANSPORT_FAILED' });
      expect(outcome.message).toMatch(overMessageLimit);
    }, 120_000);

    it('a thousand 1 MiB pages (each under the per-message limit) fail the attach at the whole-list limit', async () => {
      const outcome = await smallHeapClient({
        server: fixture('hostile.mjs', {
          args: [join(here, 'testing-fixtures', 'hostile.mjs'), 'many-pages'],
        }),
      });
      expect(outcome).toMatchObject({ stage: 'attach', ok: false, code: 'TRANSPORT_FAILED' });
      expect(outcome.message).toContain(
        'MCP server "hostile" lists more than 8 MiB of tools over all its pages (limits.maxListBytes)',
      );
    }, 120_000);

    it('a list of dense schemas (1 MB of empty properties a page) fails the attach at the whole-list limit', async () => {
      const outcome = await smallHeapClient({
        server: fixture('hostile.mjs', {
          args: [join(here, 'testing-fixtures', 'hostile.mjs'), 'dense-schemas'],
        }),
      });
      expect(outcome).toMatchObject({ stage: 'attach', ok: false, code: 'TRANSPORT_FAILED' });
      expect(outcome.message).toContain('(limits.maxListBytes)');
    }, 120_000);

    it('a 3 MB result, under the limit, is served whole (the gate caps it for the model, not the resolver)', async () => {
      const outcome = await smallHeapClient({
        server: fixture('hostile.mjs'),
        call: { tool: 'big_result', parameters: { chars: 3_000_000 } },
      });
      expect(outcome).toMatchObject({ stage: 'call', ok: true });
      // one Limits, applied once by the gate's cap station: the resolver passes the output through
      expect(outcome.outputChars).toBeGreaterThanOrEqual(3_000_000);
    }, 120_000);
  });

  describe('over streamable HTTP (a raw node:http server)', () => {
    let http: HostileHttp;
    beforeAll(async () => {
      http = await startHostileHttp();
    });
    afterAll(async () => {
      await http.close();
    });
    const server = (): McpServerConfig => ({ name: 'hostile-http', url: http.url });

    it.each([
      ['an SSE stream with a line that never ends', 'sse_unterminated'],
      ['a 1 GB JSON body', 'json_huge'],
      ['an SSE event of 300 MB of empty objects', 'sse_empty_objects'],
    ])(
      '%s fails the call with the per-message limit named',
      async (_, tool) => {
        const before = http.attackBytes;
        const outcome = await smallHeapClient({ server: server(), call: { tool } });
        expect(outcome).toMatchObject({ stage: 'call', ok: false, code: 'TRANSPORT_FAILED' });
        expect(outcome.message).toMatch(overMessageLimit);
        // The server stopped being read long before it finished: it wrote far less than it meant to.
        expect(http.attackBytes - before).toBeLessThan(200 * 1024 * 1024);
      },
      120_000,
    );

    it('a 5 MB HTTP 500 body reaches the error cut, with a marker', async () => {
      const outcome = await smallHeapClient({ server: server(), call: { tool: 'error_500' } });
      expect(outcome).toMatchObject({ stage: 'call', ok: false });
      expect(outcome.message).toContain('MCP server "hostile-http"');
      expect(outcome.messageTail).toContain('[… truncated: the rest of the body was not read]');
      expect(outcome.messageChars).toBeLessThan(11_000);
    }, 120_000);
  });
});
