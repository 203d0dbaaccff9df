import { readdirSync, readFileSync } from 'node:fs';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import type { ToolProgressEvent } from '@toolgate/core/internal';
import { LocalEnvironment } from '@toolgate/environment';
import { makeWorld, type TempWorld } from '@toolgate/environment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from './builtin-tools.js';

let world: TempWorld;
beforeAll(() => {
  world = makeWorld();
});
afterAll(() => world.cleanup());

/** The pids of live (not zombie) processes whose command line contains `token`. */
function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(token) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${entry}/stat`, 'utf8')))
        found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`${what} did not happen within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function shellAgent(timeoutMs?: number) {
  const registry = new ToolRegistry();
  for (const tool of builtinTools(new LocalEnvironment({ root: world.root }))) registry.register(tool);
  return new ToolGate(registry, timeoutMs === undefined ? {} : { timeoutMs }).forAgent({
    name: 'tester',
    tools: ['shell'],
  });
}

const token = () => `${Math.floor(Math.random() * 1e6) + 1}.75`;

describe('shell cancellation, timeout and progress through the gate', () => {
  it('kills the command with everything it started when the call is cancelled', async () => {
    const sleep = `sleep ${token()}`;
    const controller = new AbortController();
    const progress: ToolProgressEvent[] = [];
    const pending = shellAgent().callTool(
      'shell',
      { command: `${sleep} & echo started; ${sleep}` },
      { signal: controller.signal, onProgress: (event) => progress.push(event) },
    );
    await until(
      () => progress.some((event) => event.message?.includes('started')) && processesWith(sleep).length >= 2,
      'the start',
    );
    controller.abort();
    expect(await pending).toMatchObject({ isError: true, error: { code: 'CANCELLED' } });
    await until(() => processesWith(sleep).length === 0, 'the kill');
    expect(processesWith(sleep)).toEqual([]);
  });

  it("kills the command when the gate's timeout passes, and ends the call with TIMEOUT", async () => {
    const sleep = `sleep ${token()}`;
    const result = await shellAgent(300).callTool('shell', { command: `${sleep} & ${sleep}` });
    expect(result).toMatchObject({ isError: true, error: { code: 'TIMEOUT' } });
    await until(() => processesWith(sleep).length === 0, 'the kill');
    expect(processesWith(sleep)).toEqual([]);
  });

  it('reports output as progress before the result', async () => {
    const seen: ToolProgressEvent[] = [];
    let resultArrived = false;
    const late: ToolProgressEvent[] = [];
    const result = await shellAgent().callTool(
      'shell',
      { command: 'echo one; sleep 0.2; echo two' },
      { onProgress: (event) => (resultArrived ? late : seen).push(event) },
    );
    resultArrived = true;
    expect(result).toMatchObject({ isError: false, output: { stdout: 'one\ntwo\n' } });
    // chunks may merge on a loaded machine; what arrives, and in which order, may not change
    expect(seen.map((event) => event.message).join('')).toBe('one\ntwo\n');
    expect(seen.at(-1)).toMatchObject({ tool: 'shell', progress: 8 });
    expect(late).toEqual([]);
  });
});
