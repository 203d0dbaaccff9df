import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import type { ToolProgressEvent } from '@toolgate/core/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectClosingAfterEach, fixture } from './testing-fixtures/servers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'patient-'));
});
// retried: a server's child the close is still ending may write into it a moment longer (ENOTEMPTY)
afterEach(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
// Registered after the removal so it runs before it (after-hooks run as a stack): a server still
// running could write its `aborted` file into the directory while it is being removed.
const connect = connectClosingAfterEach();

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`${what} did not happen within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function patientAgent(gateOptions: { timeoutMs?: number } = {}, serverTimeoutMs?: number) {
  const resolver = await connect([
    fixture('patient.mjs', {
      args: [join(import.meta.dirname, 'testing-fixtures', 'patient.mjs'), dir],
      ...(serverTimeoutMs === undefined ? {} : { timeoutMs: serverTimeoutMs }),
    }),
  ]);
  const gate = new ToolGate(new ToolRegistry().setResolver(resolver), gateOptions);
  return { resolver, agent: gate.forAgent({ name: 'caller', tools: ['hang', 'count'] }) };
}

describe('MCP cancellation, timeouts and progress', () => {
  it("cancels a hung remote call: CANCELLED at once, the server's handler sees its signal aborted, the session lives on", async () => {
    const { resolver, agent } = await patientAgent();
    const pid = await resolver.pid('patient');
    expect(pid).toEqual(expect.any(Number));
    const controller = new AbortController();
    const pending = agent.callTool('hang', {}, { signal: controller.signal });
    await until(() => existsSync(join(dir, 'started')), 'the remote start');
    controller.abort();
    expect(await pending).toMatchObject({ isError: true, error: { code: 'CANCELLED' } });
    await until(() => existsSync(join(dir, 'aborted')), "the server's abort");
    expect(readFileSync(join(dir, 'aborted'), 'utf8')).toContain('cancelled');
    // the cancellation was a notification, not a broken session: the same server answers next
    expect(await agent.callTool('count', { steps: 1 })).toMatchObject({
      isError: false,
      output: { counted: 1 },
    });
    expect(await resolver.pid('patient')).toEqual(pid);
  });

  it("ends a hung remote call at the gate's timeout with TIMEOUT, and tells the server", async () => {
    const { agent } = await patientAgent({ timeoutMs: 300 });
    const result = await agent.callTool('hang', {});
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'TIMEOUT', message: expect.stringContaining('did not finish within 300 ms') },
    });
    await until(() => existsSync(join(dir, 'aborted')), "the server's abort");
  });

  it("keeps the server's own timeout working under the gate's", async () => {
    // the server's timeout also bounds its start: long enough for a loaded machine
    const { agent } = await patientAgent({ timeoutMs: 60_000 }, 5000);
    const result = await agent.callTool('hang', {});
    expect(result).toMatchObject({
      isError: true,
      error: {
        code: 'TIMEOUT',
        message: expect.stringContaining('did not answer a call to "hang" within 5000 ms'),
      },
    });
    // the server's timeout tells the server too (and, waited for here, its handler's last write
    // lands before the directory is removed)
    await until(() => existsSync(join(dir, 'aborted')), "the server's abort");
  });

  it('forwards remote progress notifications to onProgress, before the result', async () => {
    const { agent } = await patientAgent();
    const seen: ToolProgressEvent[] = [];
    let resulted = false;
    const late: ToolProgressEvent[] = [];
    const result = await agent.callTool(
      'count',
      { steps: 3 },
      { onProgress: (event) => (resulted ? late : seen).push(event) },
    );
    resulted = true;
    expect(result).toMatchObject({ isError: false, output: { counted: 3 } });
    expect(seen.map(({ tool, progress, total, message }) => ({ tool, progress, total, message }))).toEqual([
      { tool: 'count', progress: 1, total: 3, message: 'step 1' },
      { tool: 'count', progress: 2, total: 3, message: 'step 2' },
      { tool: 'count', progress: 3, total: 3, message: 'step 3' },
    ]);
    expect(late).toEqual([]);
  });
});
