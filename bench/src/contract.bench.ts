/**
 * What the call contract costs (issue 13): an async tool called through the gate with a caller's
 * signal and a timeout armed, against the same call with neither (`timeoutMs: Infinity`, no
 * signal) — target ≤ 1.3×; beside it, the tool reading `context.signal` (an AbortSignal built). Then cancel latency,
 * abort to error result, for a hung in-process tool and a hung MCP tool (`shell` running `sleep`
 * behind `toolgate-mcp`), beside a bare `AbortController` round trip; medians printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, ToolGate, ToolRegistry } from '@toolgate/core';
import { MCPResolver } from '@toolgate/mcp-client';
import { cliPath as toolgateMcpPath } from '@toolgate/mcp-server/testing';
import { z } from 'zod';
import { compareLatency } from './compare.js';
import { format, median, quick, report, row } from './report.js';

const input = z.object({ seed: z.string().describe('the seed') });
const plain = defineTool({
  name: 'plain',
  description: 'Draw an omen, asynchronously.',
  input,
  run: async ({ seed }) => ({ omen: `omen of ${seed}` }),
});
const aware = defineTool({
  name: 'aware',
  description: 'Draw an omen, asynchronously, checking its signal.',
  input,
  run: async ({ seed }, context) => ({ omen: `omen of ${seed}`, stopped: context.signal.aborted }),
});
const registry = new ToolRegistry().register(plain).register(aware);
const manifest = { name: 'fortune-teller', tools: ['plain', 'aware'] };
const without = new ToolGate(registry, { callIds: () => 'id', timeoutMs: Number.POSITIVE_INFINITY }).forAgent(
  manifest,
);
const armed = new ToolGate(registry, { callIds: () => 'id', timeoutMs: 60_000 }).forAgent(manifest);
const signal = new AbortController().signal;
const parameters = { seed: 'moss on the north stones' };

await compareLatency({
  id: 'contract-armed',
  title: 'core: a call with context, signal and timeout armed vs without',
  what:
    'One async tool call through `agent.callTool`: with a caller signal listened to, a 60 s timeout armed and ' +
    'a context handed to the tool vs the gate with `timeoutMs: Infinity` and no signal. Printed beside: the ' +
    "same armed call with the tool reading `context.signal` (which makes Node build an AbortSignal, the tool's cost).",
  anchor: { name: 'gate, nothing armed', fn: () => without.callTool('plain', parameters) },
  subject: {
    name: 'gate, signal + timeout armed',
    fn: () => armed.callTool('plain', parameters, { signal }),
  },
  others: [
    {
      name: 'gate armed, tool reads context.signal',
      fn: () => armed.callTool('aware', parameters, { signal }),
    },
  ],
  maxRatio: 1.3,
});

const samples = quick ? 5 : 200;

/** Abort → settled, in µs, for `samples` calls; `start` begins one and resolves once it is in flight. */
async function cancelLatency(
  start: (signal: AbortSignal) => Promise<{ settled: Promise<unknown> }>,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < samples; index++) {
    const controller = new AbortController();
    const { settled } = await start(controller.signal);
    const began = performance.now();
    controller.abort();
    const result = (await settled) as { isError?: boolean; error?: { code: string } } | undefined;
    latencies.push((performance.now() - began) * 1000);
    if (result && result.error?.code !== 'CANCELLED')
      throw new Error(`expected CANCELLED, got ${JSON.stringify(result)}`);
  }
  return latencies;
}

const bare = await cancelLatency(async (signal) => ({
  settled: new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(undefined), { once: true }),
  ),
}));

let hungStarted: () => void = () => {};
const hung = defineTool({
  name: 'hung',
  description: 'Never answers and ignores its signal.',
  input: z.object({}),
  run: () => {
    hungStarted();
    return new Promise(() => {});
  },
});
const hungAgent = new ToolGate(new ToolRegistry().register(hung)).forAgent({ name: 'a', tools: ['hung'] });
const inProcess = await cancelLatency(async (signal) => {
  const started = new Promise<void>((resolve) => (hungStarted = resolve));
  const settled = hungAgent.callTool('hung', {}, { signal });
  await started;
  return { settled };
});

const root = mkdtempSync(join(tmpdir(), 'contract-bench-'));
const resolver = await MCPResolver.connect([
  {
    name: 'toolgate-mcp',
    command: process.execPath,
    args: [toolgateMcpPath(), '--tools', 'shell', '--root', root],
    // each sample waits for the command's first progress report; at the default 20 notifications a
    // second (bursts of 40) the 41st report of a quick succession is dropped, and its sample would
    // wait for ever
    limits: { maxNotificationsPerSecond: 100_000 },
  },
]);
const remoteAgent = new ToolGate(new ToolRegistry().setResolver(resolver)).forAgent({
  name: 'a',
  tools: ['shell'],
});
const overMcp = await cancelLatency(async (signal) => {
  let running: () => void = () => {};
  const started = new Promise<void>((resolve) => (running = resolve));
  // the first progress report ("go") proves the command is running on the server
  const settled = remoteAgent.callTool(
    'shell',
    { command: 'echo go; sleep 1000' },
    { signal, onProgress: () => running() },
  );
  await started;
  return { settled };
});
await resolver.close();
rmSync(root, { recursive: true, force: true });

const rows = [
  row('bare AbortController round trip', bare, 'µs'),
  row('hung in-process tool: abort → CANCELLED result', inProcess, 'µs'),
  row('hung MCP tool (shell sleep): abort → CANCELLED result', overMcp, 'µs'),
];
const inProcessMs = median(inProcess) / 1000;
const overMcpMs = median(overMcp) / 1000;
report({
  id: 'contract-cancel-latency',
  title: 'core + MCP: cancel latency, abort to error result',
  what: `${samples} cancels each of a call already running: a hung in-process tool that ignores its signal, and \`shell\` running \`sleep\` behind \`toolgate-mcp\` over stdio (the server is told with notifications/cancelled and kills the command; the figure is the caller's wait), beside a bare AbortController round trip.`,
  rows,
  figure: `medians ${format(inProcessMs)} ms in-process, ${format(overMcpMs)} ms over MCP`,
  target: '≤ 5 ms in-process, ≤ 20 ms MCP',
  met: inProcessMs <= 5 && overMcpMs <= 20,
});
