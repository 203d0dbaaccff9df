/**
 * Memory that grows with the work (issue 27, item 3):
 * 1. the heap one recorded call leaves behind, through a ToolGate and a LedgerRecorder into a
 *    FileStore (target ≈ 0: at most 50 bytes a call, beyond bounded caches) and into a MemoryStore
 *    (printed: it keeps every event, by its nature);
 * 2. the resident set `toolgate-gateway` grows by per call over stdio (no fsync: memory, not the disk), after a
 *    warm-up, its old space capped at 64 MiB so that garbage is collected as it goes and what grows
 *    is what it keeps (printed: resident memory is what a long-running process costs its host).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath as toolgateMcpPath } from '@toolgate/mcp-server/testing';
import { format, median, quick, report, row } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'toolgate-memory-per-call-bench-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));

// 1. Heap per recorded call ---------------------------------------------------------------------------
const calls = quick ? 5_000 : 50_000;
function heapPerCall(store: 'file' | 'memory', round: number): Promise<number> {
  const path = join(directory, `calls-${store}-${round}.jsonl`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', join(here, 'children', 'heap-per-call.mjs'), JSON.stringify({ store, path, calls })],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`heap-per-call.mjs (${store}) exited ${code}`));
      resolve((JSON.parse(out) as { perCall: number }).perCall);
    });
  });
}
const perCall = { file: [] as number[], memory: [] as number[] };
for (let round = 0; round < (quick ? 1 : 3); round++) {
  perCall.file.push(await heapPerCall('file', round));
  perCall.memory.push(await heapPerCall('memory', round));
}
const fileBytes = median(perCall.file);
report({
  id: 'memory-per-call',
  title: 'memory: heap retained per recorded call, FileStore and MemoryStore',
  what:
    `${calls.toLocaleString('en-US')} calls through a ToolGate (agent handle, rule policy, cap) and a LedgerRecorder ` +
    'after a warm-up of 5,000, in a fresh process each; the heap after full collections, before and after. ' +
    'The MemoryStore keeps every event it is given (that is what it is for); the FileStore keeps bounded ' +
    'caches of the latest ids and offsets.',
  rows: [
    row('FileStore: heap per call', perCall.file, 'bytes'),
    row('MemoryStore: heap per call (keeps its events)', perCall.memory, 'bytes'),
  ],
  figure: `FileStore ${format(fileBytes)} bytes a call; MemoryStore ${format(median(perCall.memory))} bytes a call (its events)`,
  target: 'FileStore ≤ 50 bytes a call',
  met: quick ? null : fileBytes <= 50,
});

// 2. The gateway's resident set per call ------------------------------------------------------------
const gatewayCli = join(
  dirname(createRequire(import.meta.url).resolve('@toolgate/gateway/package.json')),
  'dist',
  'cli.js',
);
const config = join(directory, 'gateway.yaml');
writeFileSync(
  config,
  `servers:\n  oracle: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(toolgateMcpPath())}, "--tools", "oracle"], prefix: o }\n` +
    'clients:\n  bench: { tools: ["o__*"] }\nstdio: bench\nledger: ./gateway.ledger.jsonl\ndurability: none\n',
);
const transport = new StdioClientTransport({
  command: process.execPath,
  // a capped old space makes the collector reclaim garbage as it goes: what still grows is kept
  args: ['--max-old-space-size=64', gatewayCli, '--config', config],
  cwd: directory,
});
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);
const rssKiB = () => {
  const status = readFileSync(`/proc/${transport.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
};
async function gatewayCalls(count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const result = await client.callTool({ name: 'o__oracle', arguments: { seed: `moss ${index}` } });
    if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result)}`);
  }
}
const warmUp = quick ? 200 : 2_000;
const measured = quick ? 1_000 : 12_000;
await gatewayCalls(warmUp);
const samples: number[] = [rssKiB()];
for (let part = 0; part < 4; part++) {
  await gatewayCalls(measured / 4);
  samples.push(rssKiB());
}
await client.close();
const growth = samples.slice(1).map((kib, index) => ((kib - samples[index]!) * 1024) / (measured / 4));
report({
  id: 'memory-gateway-per-call',
  title: 'memory: toolgate-gateway resident set per call over stdio',
  what:
    `An MCP SDK client calls \`o__oracle\` through \`toolgate-gateway\` over stdio (no fsync, \`toolgate-mcp\` ` +
    `upstream, old space capped at 64 MiB): ${warmUp.toLocaleString('en-US')} calls of warm-up, then ${measured.toLocaleString('en-US')} in four ` +
    "parts, the gateway's VmRSS read after each; the rows are the growth per call of each part.",
  rows: [row('gateway: resident set growth per call', growth, 'bytes')],
  figure: `${format(median(growth))} bytes a call (resident ${format(samples[0]! / 1024)} → ${format(samples.at(-1)! / 1024)} MiB)`,
  target: '',
  met: null,
});
