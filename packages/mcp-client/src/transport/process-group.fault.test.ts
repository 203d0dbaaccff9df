import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { connectClosingAfterEach, fixture } from '../testing-fixtures/servers.js';

/**
 * True once `pid` has exited: no such process, or a zombie. A zombie has exited and only waits to be
 * collected by its parent, and a container's PID 1 (as on this machine) may never collect orphans.
 */
function exited(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function exitedWithin(pid: number, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!exited(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return exited(pid);
}

describe.skipIf(process.platform === 'win32')('a stdio server in its own process group', () => {
  const connect = connectClosingAfterEach();

  it("kills the server's own child when the resolver closes", async () => {
    const resolver = await connect([fixture('with-child.mjs')]);
    const server = (await resolver.pid('with-child'))!;
    const { pid } = (await resolver.call('child', {})) as { pid: number };
    expect(exited(pid)).toBe(false);
    await resolver.close();
    expect(await exitedWithin(server)).toBe(true);
    expect(await exitedWithin(pid)).toBe(true);
  });

  it('kills the server and its child when a call times out', async () => {
    const resolver = await connect([fixture('with-child.mjs', { timeoutMs: 5000 })]);
    const server = (await resolver.pid('with-child'))!;
    const { pid } = (await resolver.call('child', {})) as { pid: number };
    await expect(resolver.call('hang', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(await exitedWithin(server)).toBe(true);
    expect(await exitedWithin(pid)).toBe(true);
  });

  it('kills the child of a server that exits by itself', async () => {
    const resolver = await connect([fixture('with-child.mjs')]);
    const { pid } = (await resolver.call('child', {})) as { pid: number };
    await expect(resolver.call('exit', {})).rejects.toMatchObject({ code: 'TRANSPORT_FAILED' });
    expect(await exitedWithin(pid)).toBe(true);
  });
});
