import { MemoryEnvironment } from '@toolgate/environment';
import { describe, expect, it } from 'vitest';
import { maxCommandBytes } from './command-subject.js';
import { builtinAgent } from './testing-fixtures/agent.js';

describe('shell command size', () => {
  const ran: string[] = [];
  // the gate's own bound on parameters lifted, so the shell tool's limit is what refuses
  const agent = builtinAgent(
    new MemoryEnvironment({
      commands: (command) => {
        ran.push(command);
        return { stdout: 'ran', stderr: '' };
      },
    }),
    undefined,
    undefined,
    { limits: { parameterChars: Number.POSITIVE_INFINITY } },
  );

  it('refuses a 10 MB command with a clear error before anything runs (no stack overflow)', async () => {
    const result = await agent.callTool('shell', { command: `echo ${'x'.repeat(10_000_000)}` });
    expect(result).toMatchObject({
      isError: true,
      error: {
        code: 'INVALID_PARAMETERS',
        message: expect.stringMatching(
          /^the command is 10000005 bytes long; .* at most 131071 bytes .*write_file/,
        ),
      },
    });
    expect(ran).toEqual([]);
  });

  it('counts bytes, not characters, and still runs the longest command a shell can take', async () => {
    const wide = await agent.callTool('shell', { command: `echo ${'é'.repeat(70_000)}` }); // 140,005 bytes
    expect(wide).toMatchObject({ isError: true, error: { code: 'INVALID_PARAMETERS' } });
    const longest = `echo ${'x'.repeat(maxCommandBytes - 5)}`;
    expect(await agent.callTool('shell', { command: longest })).toMatchObject({
      isError: false,
      output: { stdout: 'ran' },
    });
    expect(ran).toEqual([longest]);
  });
});
