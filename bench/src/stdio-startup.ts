import { type ChildProcess, spawn } from 'node:child_process';

/** initialize, initialized and tools/list, as one stdio write (newline-delimited JSON-RPC). */
const handshake = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((message) => `${JSON.stringify(message)}\n`)
  .join('');

/**
 * Milliseconds from spawning `node <args>` (an MCP server over stdio, in `cwd`) to its first
 * `tools/list` answer, with the whole handshake written at once; the child is stopped (stdin
 * closed) and awaited before this returns.
 */
export async function startToToolsList(args: string[], cwd: string): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.write(handshake);
  await new Promise<void>((resolve, reject) => {
    let text = '';
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before answering tools/list`)));
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('"id":2')) resolve();
    });
  });
  const elapsed = performance.now() - start;
  child.removeAllListeners('exit');
  await stopped(child, () => child.stdin.end());
  return elapsed;
}

/** Resolves once `child` has exited, after calling `stop` (unless it already had). */
export function stopped(child: ChildProcess, stop: () => void): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    stop();
  });
}
