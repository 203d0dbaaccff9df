import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExecOptions, LocalEnvironment, MemoryEnvironment } from '@toolgate/environment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinAgent, outputOf } from './testing-fixtures/agent.js';
import { deadlineMarginMs } from './time-left.js';

/** An environment that runs no command but notes the time each was given. */
function timedCommands() {
  const given: (number | undefined)[] = [];
  const environment = new MemoryEnvironment({
    commands: (_command: string, options: ExecOptions) => {
      given.push(options.timeoutMs);
      return 'ran';
    },
  });
  return { environment, given };
}

describe("the shell under its caller's deadline", () => {
  it('gives a command the model set no timeout for the time left to its call (a 180 s budget), not a default of its own', async () => {
    const { environment, given } = timedCommands();
    const agent = builtinAgent(environment);
    outputOf(await agent.callTool('shell', { command: 'make' }, { timeoutMs: 180_000 }));
    const [timeoutMs] = given;
    // a moment before the deadline, so the command's output still reaches the caller
    expect(timeoutMs).toBeLessThanOrEqual(180_000 - deadlineMarginMs);
    // far beyond the 30 s that was the shell's own default (the call itself took milliseconds)
    expect(timeoutMs).toBeGreaterThan(120_000);
  });

  it('runs a 120 s command the model asked for under a 180 s budget for its whole 120 s', async () => {
    const { environment, given } = timedCommands();
    const agent = builtinAgent(environment);
    outputOf(await agent.callTool('shell', { command: 'make', timeoutMs: 120_000 }, { timeoutMs: 180_000 }));
    expect(given).toEqual([120_000]);
  });

  it('keeps an operator-configured shellTimeoutMs, and maxShellTimeoutMs bounds the caller time', async () => {
    const configured = timedCommands();
    const agent = builtinAgent(configured.environment, undefined, { shellTimeoutMs: 5000 });
    outputOf(await agent.callTool('shell', { command: 'make' }, { timeoutMs: 180_000 }));
    expect(configured.given).toEqual([5000]);
    const bounded = timedCommands();
    const short = builtinAgent(bounded.environment, undefined, { maxShellTimeoutMs: 60_000 });
    outputOf(await short.callTool('shell', { command: 'make' }, { timeoutMs: 180_000 }));
    expect(bounded.given).toEqual([60_000]);
  });

  it('falls back to 30 s only for a call with no deadline', async () => {
    const { environment, given } = timedCommands();
    const agent = builtinAgent(environment, undefined, undefined, { timeoutMs: Number.POSITIVE_INFINITY });
    outputOf(await agent.callTool('shell', { command: 'make' }));
    expect(given).toEqual([30_000]);
  });

  it('tells the model what its default is', async () => {
    const { environment } = timedCommands();
    const [shell] = (await builtinAgent(environment).toolSchemas()).filter((tool) => tool.name === 'shell');
    expect(JSON.stringify(shell?.inputSchema)).toContain(
      'Default: the time left to this call (30000 when it has no deadline), at most 300000.',
    );
  });
});

describe("search_files under its caller's deadline", () => {
  // Forty `a`s before a `!` make this pattern backtrack for days: only a deadline ends it.
  const runaway = `${'a'.repeat(40)}!`;
  let root: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-search-time-')));
    writeFileSync(join(root, 'notes.txt'), `moss\n${runaway}\n`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("stops the search itself a moment before the caller's deadline (no 30 s of its own), naming the pattern", async () => {
    const agent = builtinAgent(new LocalEnvironment({ root, search: 'javascript' }));
    // a first search starts the search thread (its start is not counted against a search's time)
    expect(outputOf(await agent.callTool('search_files', { pattern: '^moss$' })).totalMatches).toBe(1);
    const result = await agent.callTool('search_files', { pattern: '(a+)+$' }, { timeoutMs: 4000 });
    // the search's own TIMEOUT (it names the pattern), not the gate's, which names only the tool
    expect(result).toMatchObject({
      isError: true,
      error: {
        code: 'TIMEOUT',
        message: expect.stringMatching(
          /the search for pattern "\(a\+\)\+\$" was stopped at its deadline of \d+ ms/,
        ),
      },
    });
    const stoppedAt = Number(/deadline of (\d+) ms/.exec(result.isError ? result.error.message : '')?.[1]);
    expect(stoppedAt).toBeLessThanOrEqual(4000 - deadlineMarginMs);
  });
});

describe("fetch under its caller's deadline", () => {
  // a server that takes every request and never answers it
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("gives up the request itself a moment before the caller's deadline (not the environment's 30 s), naming the URL", async () => {
    const environment = new LocalEnvironment({ root: tmpdir(), allowHosts: [`127.0.0.1:${port}`] });
    const agent = builtinAgent(environment);
    const url = `http://127.0.0.1:${port}/slow`;
    const result = await agent.callTool('fetch', { url }, { timeoutMs: 3000 });
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'TIMEOUT', message: expect.stringContaining(`fetching ${url} took longer than`) },
    });
    const gaveUpAt = Number(/longer than (\d+) ms/.exec(result.isError ? result.error.message : '')?.[1]);
    expect(gaveUpAt).toBeLessThanOrEqual(3000 - deadlineMarginMs);
  });
});
