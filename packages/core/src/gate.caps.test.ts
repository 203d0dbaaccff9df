import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolgateError } from './errors.js';
import { ToolGate } from './gate.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

const registry = new ToolRegistry()
  .register(
    defineTool({
      name: 'quotes',
      description: 'Returns a string of quotes.',
      input: z.object({ count: z.number().describe('How many.') }),
      run: ({ count }) => ({ text: '"'.repeat(count) }),
    }),
  )
  .register(
    defineTool({
      name: 'echo_fail',
      description: 'Fails, quoting its command in the message.',
      input: z.object({ command: z.string().describe('Any command.') }),
      run: ({ command }) => {
        throw new ToolgateError('COMMAND_FAILED', `the command ${command} failed`);
      },
    }),
  )
  .register(
    defineTool({
      name: 'throw_plain',
      description: 'Throws a plain Error with a huge message.',
      input: z.object({ size: z.number().describe('How long.') }),
      run: ({ size }) => {
        throw new Error('\n'.repeat(size));
      },
    }),
  );

// parameters unbounded here: the 2 MB command must reach the tool for its error to be capped
const agent = new ToolGate(registry, {
  limits: { outputChars: 100_000, errorChars: 10_000, parameterChars: Number.POSITIVE_INFINITY },
}).forAgent({
  name: 'a',
  tools: ['quotes', 'echo_fail', 'throw_plain'],
});

describe('the gate caps what it returns', () => {
  it('returns at most limits.outputChars of JSON for an output of quotes (not 2× from escaping)', async () => {
    const result = await agent.callTool('quotes', { count: 300_000 });
    expect(result).toMatchObject({ isError: false, output: { truncated: true } });
    expect(JSON.stringify((result as { output: unknown }).output).length).toBeLessThanOrEqual(100_000);
  });

  it('caps an error message too, with a marker: a 2 MB command does not come back whole', async () => {
    const command = `echo ${'x'.repeat(2_000_000)}`;
    const result = await agent.callTool('echo_fail', { command });
    expect(result).toMatchObject({ isError: true, error: { code: 'COMMAND_FAILED' } });
    const message = (result as { error: { message: string } }).error.message;
    expect(message.startsWith('the command echo xxx')).toBe(true);
    expect(JSON.stringify(message.slice(0, message.indexOf('\n[… truncated'))).length - 2).toBe(10_000);
    expect(message).toMatch(/\n\[… truncated: \d+ more characters not shown\]$/);
    const omitted = Number(/truncated: (\d+) more/.exec(message)![1]);
    expect(message.indexOf('\n[… truncated') + omitted).toBe(`the command ${command} failed`.length);
    expect(JSON.stringify(message).length).toBeLessThan(10_100);
  });

  it('caps error messages at 10,000 characters by default, apart from the output cap', async () => {
    const gate = new ToolGate(registry, { limits: { outputChars: 50 } });
    const result = await gate.forAgent({ name: 'a', tools: ['echo_fail'] }).callTool('echo_fail', {
      command: 'x'.repeat(20_000),
    });
    const message = (result as { error: { message: string } }).error.message;
    expect(message.indexOf('\n[… truncated')).toBe(10_000);
  });

  it('caps the message of a plain thrown error by its escaped length', async () => {
    const result = await agent.callTool('throw_plain', { size: 500_000 });
    const message = (result as { error: { message: string } }).error.message;
    expect(result).toMatchObject({ isError: true, error: { code: 'TOOL_FAILED' } });
    expect(JSON.stringify(message).length).toBeLessThan(10_100);
    const omitted = Number(/truncated: (\d+) more characters not shown\]$/.exec(message)![1]);
    const prefix = 'tool "throw_plain" failed: ';
    expect(message.startsWith(prefix)).toBe(true);
    expect(message.lastIndexOf('\n[… truncated') + omitted).toBe(prefix.length + 500_000);
  });
});
