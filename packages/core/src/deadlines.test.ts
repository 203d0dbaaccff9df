import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { afterBudget } from './deadlines.js';

const built = pathToFileURL(join(import.meta.dirname, '..', 'dist', 'index.js')).href;

/** Runs a module in a fresh node (the built package), bounded only against a hang. */
function runNode(source: string): Promise<{ code: number | null; stdout: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, ms: performance.now() - started });
    }),
  );
}

const header = `
import { defineTool, ToolGate, ToolRegistry } from ${JSON.stringify(built)};
import { z } from 'zod';
`;

describe('call budgets', () => {
  it('fires each deadline of a shared budget at its own time, and never one that was cleared', async () => {
    const fired: string[] = [];
    const clearFirst = afterBudget(40, () => fired.push('first'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    afterBudget(40, () => fired.push('second'));
    clearFirst();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toEqual([]);
    for (let waited = 0; fired.length === 0 && waited < 20_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fired).toEqual(['second']);
  });

  it('keeps the process alive while a call waits for its budget, so a hung call ends in TIMEOUT', async () => {
    const { code, stdout } = await runNode(`${header}
const stuck = defineTool({ name: 'stuck', description: 'Hangs.', input: z.object({}), timeoutMs: 200, run: () => new Promise(() => {}) });
const result = await new ToolGate(new ToolRegistry().register(stuck)).forAgent({ name: 'a', tools: ['stuck'] }).callTool('stuck', {});
console.log(result.error.code);`);
    expect(stdout.trim()).toBe('TIMEOUT');
    expect(code).toBe(0);
  });

  it('lets the process exit at once when its calls are done, not at the 10-minute default budget', async () => {
    const { code, stdout, ms } = await runNode(`${header}
const quick = defineTool({ name: 'quick', description: 'Answers.', input: z.object({}), run: async () => ({ ok: true }) });
const result = await new ToolGate(new ToolRegistry().register(quick)).forAgent({ name: 'a', tools: ['quick'] }).callTool('quick', {});
console.log(result.isError ? result.error.code : 'ok');`);
    expect(stdout.trim()).toBe('ok');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(50_000); // the budget is 600,000 ms: a held timer would be killed by the guard
  });
});
