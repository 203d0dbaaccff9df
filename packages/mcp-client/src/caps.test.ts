import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinTools } from '@toolgate/builtins';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { LocalEnvironment } from '@toolgate/environment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClosingAfterEach, fixture, toolgateMcp } from './testing-fixtures/servers.js';

type Capped = { truncated: true; omittedChars: number; text: string };

describe('remote output caps through a real stdio server, the resolver and the gate', () => {
  const connect = connectClosingAfterEach();

  it('returns one wrapper within the cap, not a wrapper inside a wrapper', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { limits: { outputChars: 1000 } });
    const result = await gate.forAgent({ name: 'a', tools: ['big'] }).callTool('big', { size: 5000 });
    expect(result).toMatchObject({ isError: false, output: { truncated: true } });
    const output = (result as unknown as { output: Capped }).output;
    expect(JSON.stringify(output).length).toBeLessThanOrEqual(1000);
    expect(output.text.startsWith('{"text":"xxx')).toBe(true); // the remote output's JSON, not a wrapper's
    expect(output.text.match(/\[… truncated/g)).toHaveLength(1);
    const kept = output.text.slice(0, output.text.indexOf('\n[… truncated'));
    expect(output.omittedChars).toBe(JSON.stringify({ text: 'x'.repeat(5000) }).length - kept.length);
  });

  it('cuts a remote output once, at the gate cap', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { limits: { outputChars: 500 } });
    const result = await gate.forAgent({ name: 'a', tools: ['big'] }).callTool('big', { size: 5000 });
    const output = (result as unknown as { output: Capped }).output;
    expect(Object.keys(output).sort()).toEqual(['omittedChars', 'text', 'truncated']);
    expect(JSON.stringify(output).length).toBeLessThanOrEqual(500);
    expect(output.text.startsWith('{"text":"xxx')).toBe(true);
    const kept = output.text.slice(0, output.text.indexOf('\n[… truncated'));
    expect(output.omittedChars).toBe(JSON.stringify({ text: 'x'.repeat(5000) }).length - kept.length);
  });

  it('hands a remote output exactly at the cap over whole and unmarked: nothing below the gate caps it', async () => {
    const resolver = await connect([fixture('faulty.mjs')]);
    const exact = JSON.stringify({ text: 'x'.repeat(5000) }).length;
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { limits: { outputChars: exact } });
    const result = await gate.forAgent({ name: 'a', tools: ['big'] }).callTool('big', { size: 5000 });
    expect(result).toMatchObject({ isError: false, output: { text: 'x'.repeat(5000) } });
    // past the old resolver default (100,000): still whole, under a gate that allows it
    const roomy = new ToolGate(new ToolRegistry().setResolver(resolver), {
      limits: { outputChars: 200_000 },
    });
    const large = await roomy.forAgent({ name: 'a', tools: ['big'] }).callTool('big', { size: 150_000 });
    expect(large).toMatchObject({ isError: false, output: { text: 'x'.repeat(150_000) } });
  });
});

describe("toolgate-mcp's outputs through the resolver and the gate", () => {
  const connect = connectClosingAfterEach();
  let root: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-caps-')));
    // 200 matching lines of 500 characters: search_files' own field limits keep all of them, and
    // its output is past 100,000 characters (the default cap of a gate)
    writeFileSync(join(root, 'big.txt'), `${'x'.repeat(500)}\n`.repeat(200));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("hands an output past the server gate's default cap over whole and unmarked, exactly at the caller's cap", async () => {
    const local = new ToolRegistry();
    for (const tool of builtinTools(new LocalEnvironment({ root }))) local.register(tool);
    const unlimited = { outputChars: Number.POSITIVE_INFINITY };
    const inProcess = await new ToolGate(local, { limits: unlimited })
      .forAgent({ name: 'a', tools: ['search_files'] })
      .callTool('search_files', { pattern: 'x+' });
    if (inProcess.isError) throw new Error(inProcess.error.message);
    const exact = JSON.stringify(inProcess.output).length;
    expect(exact).toBeGreaterThan(100_000);

    const resolver = await connect([toolgateMcp('search_files', ['--root', root])]);
    const gate = new ToolGate(new ToolRegistry().setResolver(resolver), { limits: { outputChars: exact } });
    const remote = await gate.forAgent({ name: 'a', tools: ['search_files'] }).callTool('search_files', {
      pattern: 'x+',
    });
    expect(remote).toMatchObject({ isError: false, output: inProcess.output });
    expect(JSON.stringify(remote)).not.toContain('[… truncated');
  });
});
