import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectClosingAfterEach, fixture, toolgateMcp } from './testing-fixtures/servers.js';

// The connection's default for a call with no deadline, made small (300 ms) so a slow call shows
// which wins without waiting a minute; its handshake keeps the real default.
vi.mock('./timeouts.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./timeouts.js')>()),
  defaultCallTimeoutMs: 300,
}));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deadline-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const connect = connectClosingAfterEach();

async function patient(gateTimeoutMs: number) {
  const resolver = await connect([
    fixture('patient.mjs', { args: [join(import.meta.dirname, 'testing-fixtures', 'patient.mjs'), dir] }),
  ]);
  const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { timeoutMs: gateTimeoutMs });
  return gate.forAgent({ name: 'caller', tools: ['count'] });
}

describe("the caller's deadline over MCP", () => {
  it("lets a call longer than the connection's default finish within the caller's budget", async () => {
    // 200 steps of at least 5 ms: a call well past the 300 ms default
    const agent = await patient(120_000);
    const result = await agent.callTool('count', { steps: 200 });
    expect(result).toMatchObject({ isError: false, output: { counted: 200 } });
    expect(result.durationMs).toBeGreaterThan(300);
  });

  it('falls back to the default only for a call that brings no deadline', async () => {
    const agent = await patient(Number.POSITIVE_INFINITY);
    const result = await agent.callTool('count', { steps: 200 });
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'TIMEOUT', message: expect.stringContaining('within 300 ms') },
    });
  });
});

describe("a shell call over toolgate-mcp, under the caller's budget", () => {
  // The real path: a gate here, MCPResolver, the built toolgate-mcp over stdio, its shell tool, a
  // real command. Scaled down from 120 s / 180 s / the connection's 60 s: a 3 s command asked for
  // with a 4 s timeout, a 6 s budget, and the connection's default made 300 ms (above).
  async function shellAgent(budgetMs: number) {
    const resolver = await connect([toolgateMcp('shell', ['--root', dir])]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { timeoutMs: budgetMs });
    return gate.forAgent({ name: 'caller', tools: ['shell'] });
  }

  it('completes a 120 s shell call under a 180 s budget (scaled: 3 s, 6 s), past the connection default', async () => {
    const agent = await shellAgent(6000);
    const result = await agent.callTool('shell', { command: 'sleep 3 && echo done', timeoutMs: 4000 });
    expect(result).toMatchObject({
      isError: false,
      output: { exitCode: 0, timedOut: false, stdout: 'done\n' },
    });
    expect(result.durationMs).toBeGreaterThan(3000);
  });

  it("ends a command past the caller's budget on the server, a moment before the deadline, and hands back its output", async () => {
    // the command asks for 60 s; the caller waits 4 s: toolgate-mcp is told so (the call's _meta)
    // and its shell kills the command in time for its output, marked timedOut, to come back
    const agent = await shellAgent(4000);
    const result = await agent.callTool('shell', { command: 'echo started && sleep 30', timeoutMs: 60_000 });
    expect(result).toMatchObject({
      isError: false,
      output: { timedOut: true, exitCode: null, stdout: 'started\n' },
    });
  });
});
