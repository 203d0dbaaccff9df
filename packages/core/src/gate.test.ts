import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ToolgateError } from './errors.js';
import { ToolGate } from './gate.js';
import type { ApprovalRequest } from './gate-options.js';
import type { JsonObject } from './json.js';
import { patternGrant } from './pipeline/grant.js';
import { type Policy, type PolicySubject, RulePolicy } from './policy.js';
import type { Recorder } from './recorder.js';
import { ToolRegistry } from './registry.js';
import type { ToolResolver } from './resolver.js';
import { defineTool } from './tool.js';

const oracle = defineTool({
  name: 'oracle',
  description: 'Draw an omen.',
  input: z.object({ seed: z.string().describe('the seed') }),
  run: ({ seed }) => ({ omen: `omen of ${seed}` }),
  parallelSafe: true,
});

function tools() {
  return new ToolRegistry()
    .register(oracle)
    .register(
      defineTool({
        name: 'explode',
        description: 'Always throws.',
        input: z.object({}),
        run: () => {
          throw new Error('the crystal cracked');
        },
      }),
    )
    .register(
      defineTool({
        name: 'reject',
        description: 'Always rejects.',
        input: z.object({}),
        run: async () => Promise.reject(new TypeError('no answer')),
      }),
    )
    .register(
      defineTool({
        name: 'weird',
        description: 'Returns something that is not JSON.',
        input: z.object({ kind: z.enum(['function', 'bigint', 'cycle']).describe('which') }),
        run: ({ kind }) => {
          if (kind === 'function') return { f: () => 1 };
          if (kind === 'bigint') return 2n ** 70n;
          const cycle: Record<string, unknown> = {};
          cycle.me = cycle;
          return cycle;
        },
      }),
    )
    .register(
      defineTool({
        name: 'write_note',
        description: 'Writes a note.',
        input: z.object({ text: z.string().describe('the note') }),
        run: ({ text }) => ({ written: text.length }),
      }),
    );
}

function memoryRecorder() {
  const records: { method: string; record: Record<string, unknown> }[] = [];
  const recorder: Recorder = {
    toolCalled: (record) => void records.push({ method: 'toolCalled', record: { ...record } }),
    policyDecided: (record) => void records.push({ method: 'policyDecided', record: { ...record } }),
    toolReturned: (record) => void records.push({ method: 'toolReturned', record: { ...record } }),
  };
  return { recorder, records };
}

function counter() {
  let next = 0;
  return () => `call-${next++}`;
}

const everything = { name: 'tester', tools: ['oracle', 'explode', 'reject', 'weird', 'write_note', 'ghost'] };

describe('AgentHandle.callTool', () => {
  it('returns the output of a granted, allowed call and records called → decided → returned', async () => {
    const { recorder, records } = memoryRecorder();
    let now = 100;
    const clock = () => (now += 7);
    const agent = new ToolGate(tools(), { recorder, callIds: counter(), clock }).forAgent(everything);
    const result = await agent.callTool('oracle', { seed: 'moss' });
    expect(result).toEqual({
      callId: 'call-0',
      tool: 'oracle',
      isError: false,
      output: { omen: 'omen of moss' },
      durationMs: 7,
    });
    expect(records.map((entry) => entry.method)).toEqual(['toolCalled', 'policyDecided', 'toolReturned']);
    expect(records.every((entry) => entry.record.callId === 'call-0')).toBe(true);
    expect(records[1]!.record).toMatchObject({ verdict: { decision: 'allow' }, decision: 'allow' });
    expect(records[2]!.record).toMatchObject({ isError: false, durationMs: 7 });
  });

  it.each([
    ['an ungranted tool', 'shell', {}, 'CAPABILITY_VIOLATION', 'agent "tester" is not granted tool "shell"'],
    ['a granted tool nobody serves', 'ghost', {}, 'UNKNOWN_TOOL', 'no tool named "ghost"'],
    ['a near-miss name', 'Oracle', { seed: 'x' }, 'CAPABILITY_VIOLATION', 'not granted tool "Oracle"'],
    ['a missing parameter', 'oracle', {}, 'INVALID_PARAMETERS', 'seed: Invalid input'],
    [
      'an extra parameter',
      'oracle',
      { seed: 'x', mood: 'dark' },
      'INVALID_PARAMETERS',
      'unknown field "mood"',
    ],
    [
      'a wrongly typed parameter',
      'oracle',
      { seed: 42 },
      'INVALID_PARAMETERS',
      'seed: Invalid input: expected string',
    ],
    ['parameters that are not an object', 'oracle', 'moss', 'INVALID_PARAMETERS', 'expected object'],
    ['a tool that throws', 'explode', {}, 'TOOL_FAILED', 'tool "explode" failed: the crystal cracked'],
    ['an async tool that rejects', 'reject', {}, 'TOOL_FAILED', 'tool "reject" failed: no answer'],
    [
      'an output with a function',
      'weird',
      { kind: 'function' },
      'INVALID_OUTPUT',
      'a function has no JSON form',
    ],
    ['a bigint output', 'weird', { kind: 'bigint' }, 'INVALID_OUTPUT', 'a bigint has no JSON form'],
    ['a cyclic output', 'weird', { kind: 'cycle' }, 'INVALID_OUTPUT', 'a cycle'],
  ])('folds %s into an error result and records it', async (_label, name, parameters, code, message) => {
    const { recorder, records } = memoryRecorder();
    const agent = new ToolGate(tools(), { recorder, callIds: counter() }).forAgent(everything);
    const result = await agent.callTool(name, parameters);
    expect(result.isError).toBe(true);
    if (!result.isError) return;
    expect(result.error.code).toBe(code);
    expect(result.error.message).toContain(message);
    const returned = records.at(-1)!;
    expect(returned.method).toBe('toolReturned');
    expect(returned.record).toMatchObject({ isError: true, error: { code } });
  });

  it('records the parameters even when they cannot be JSON', async () => {
    const { recorder, records } = memoryRecorder();
    const agent = new ToolGate(tools(), { recorder }).forAgent(everything);
    const result = await agent.callTool('oracle', { seed: 1n });
    expect(result.isError).toBe(true);
    expect(records[0]!.record.parameters).toEqual({ unrecordable: expect.stringContaining('bigint') });
  });

  it('denies with a readable reason and never runs the tool', async () => {
    const run = vi.fn(() => ({}));
    const registry = new ToolRegistry().register(
      defineTool({ name: 'shell', description: 'd', input: z.object({}), run }),
    );
    const policy = new RulePolicy({
      rules: [{ tools: ['shell'], decision: 'deny', reason: 'no shells in the grove' }],
    });
    const result = await new ToolGate(registry, { policy })
      .forAgent({ name: 'a', tools: ['shell'] })
      .callTool('shell');
    expect(result).toMatchObject({
      isError: true,
      error: {
        code: 'PERMISSION_DENIED',
        message: 'permission denied: agent "a" may not call "shell" here (no shells in the grove)',
      },
    });
    expect(run).not.toHaveBeenCalled();
  });

  it('treats ask with no approver as a deny that says so', async () => {
    const result = await new ToolGate(tools(), { policy: new RulePolicy({ default: 'ask', rules: [] }) })
      .forAgent(everything)
      .callTool('explode');
    expect(result).toMatchObject({
      isError: true,
      error: {
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining('policy says ask and no approver is configured'),
      },
    });
  });

  it('asks the approver, with the call, and obeys it', async () => {
    const approver = vi.fn(async ({ tool }: { tool: string }) =>
      tool === 'write_note' ? true : { approved: false, reason: 'not today' },
    );
    const policy = new RulePolicy({ default: 'ask', rules: [] });
    const { recorder, records } = memoryRecorder();
    const agent = new ToolGate(tools(), { policy, approver, recorder, callIds: counter() }).forAgent(
      everything,
    );
    expect(await agent.callTool('write_note', { text: 'hi' })).toMatchObject({
      isError: false,
      output: { written: 2 },
    });
    const refused = await agent.callTool('oracle', { seed: 'x' });
    expect(refused).toMatchObject({
      isError: true,
      error: { message: expect.stringContaining('not approved: not today') },
    });
    expect(approver).toHaveBeenCalledWith(
      expect.objectContaining({
        agent: 'tester',
        tool: 'write_note',
        parameters: { text: 'hi' },
        callId: 'call-0',
      }),
    );
    expect(
      records.filter((entry) => entry.method === 'policyDecided').map((entry) => entry.record.decision),
    ).toEqual(['allow', 'deny']);
  });

  it("asks a call's own approver in place of the gate's, and runs a pattern grant's call through the same pipeline", async () => {
    const policy = new RulePolicy({ default: 'ask', rules: [] });
    const gateApprover = vi.fn(() => false);
    const callApprover = vi.fn(() => ({ approved: true, by: 'alice', reason: 'fine' }));
    const { recorder, records } = memoryRecorder();
    const gate = new ToolGate(tools(), { policy, approver: gateApprover, recorder, callIds: counter() });
    const result = await gate.call(
      { tool: 'write_note', parameters: { text: 'hi' } },
      { grant: patternGrant('desk', ['write_*']), approver: callApprover },
    );
    expect(result).toMatchObject({ isError: false, output: { written: 2 } });
    expect(gateApprover).not.toHaveBeenCalled();
    expect(callApprover).toHaveBeenCalledWith(expect.objectContaining({ agent: 'desk', tool: 'write_note' }));
    const decided = records.find((entry) => entry.method === 'policyDecided')!.record;
    expect(decided).toMatchObject({
      agent: 'desk',
      decision: 'allow',
      reason: 'no rule matched; the default is ask; approved by alice: fine',
    });
    const refused = await gate.call(
      { tool: 'oracle', parameters: { seed: 'x' } },
      { grant: patternGrant('desk', ['write_*']) },
    );
    expect(refused).toMatchObject({ isError: true, error: { code: 'CAPABILITY_VIOLATION' } });
    expect(gateApprover).not.toHaveBeenCalled();
  });

  it('denies when the approver throws', async () => {
    const policy = new RulePolicy({ default: 'ask', rules: [] });
    const approver = () => {
      throw new Error('approval service down');
    };
    const result = await new ToolGate(tools(), { policy, approver })
      .forAgent(everything)
      .callTool('oracle', { seed: 'x' });
    expect(result).toMatchObject({
      isError: true,
      error: {
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining('the approver failed (approval service down)'),
      },
    });
  });

  it('caps an oversized output with a marker', async () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'flood',
        description: 'd',
        input: z.object({}),
        run: () => ({ text: 'x'.repeat(5000) }),
      }),
    );
    const result = await new ToolGate(registry, { limits: { outputChars: 100 } })
      .forAgent({ name: 'a', tools: ['flood'] })
      .callTool('flood');
    expect(result).toMatchObject({ isError: false, output: { truncated: true } });
    const output = (result as unknown as { output: { omittedChars: number; text: string } }).output;
    expect(JSON.stringify(output).length).toBeLessThanOrEqual(100);
    const kept = output.text.slice(0, output.text.indexOf('\n[… truncated'));
    expect(output.omittedChars).toBe(JSON.stringify({ text: 'x'.repeat(5000) }).length - kept.length);
  });

  it('lets a failing recorder fail the call loudly rather than run unrecorded', async () => {
    const recorder: Recorder = {
      toolCalled: () => {
        throw new Error('disk full');
      },
      policyDecided: () => {},
      toolReturned: () => {},
    };
    await expect(
      new ToolGate(tools(), { recorder }).forAgent(everything).callTool('oracle', { seed: 'x' }),
    ).rejects.toThrow('disk full');
  });

  it('refuses a bad manifest with a clear error', () => {
    expect(() => new ToolGate(tools()).forAgent({ name: 'a', tools: ['oracle'], description: 3 })).toThrow(
      'description: Invalid input: expected string, received number',
    );
  });
});

describe('AgentHandle prompt surface', () => {
  it('offers the schemas and the AVAILABLE TOOLS block of exactly the granted tools', async () => {
    const gate = new ToolGate(tools());
    const teller = gate.forAgent({ name: 'fortune-teller', tools: ['oracle'] });
    expect((await teller.toolSchemas()).map((schema) => schema.name)).toEqual(['oracle']);
    expect(await teller.availableToolsBlock()).toBe('AVAILABLE TOOLS\n- oracle: Draw an omen.');
    const whisperer = gate.forAgent({ name: 'scene-whisperer', tools: [] });
    expect(await whisperer.toolSchemas()).toEqual([]);
    expect(await whisperer.availableToolsBlock()).toBe('');
  });
});

describe('AgentHandle.callTools', () => {
  function gated(log: string[]) {
    const slow = (name: string, parallelSafe: boolean, delay: number) =>
      defineTool({
        name,
        description: 'd',
        input: z.object({}),
        parallelSafe,
        run: async () => {
          log.push(`start ${name}`);
          await new Promise((resolve) => setTimeout(resolve, delay));
          log.push(`end ${name}`);
          return { name };
        },
      });
    const registry = new ToolRegistry()
      .register(slow('slow_read', true, 30))
      .register(slow('fast_read', true, 1))
      .register(slow('write', false, 1));
    const { recorder, records } = memoryRecorder();
    const gate = new ToolGate(registry, { recorder, callIds: counter() });
    return { agent: gate.forAgent({ name: 'a', tools: ['slow_read', 'fast_read', 'write'] }), records };
  }

  it('runs parallel-safe calls concurrently, returning and recording in the model order', async () => {
    const log: string[] = [];
    const { agent, records } = gated(log);
    const results = await agent.callTools([{ name: 'slow_read' }, { name: 'fast_read' }, { name: 'shell' }]);
    expect(log).toEqual(['start slow_read', 'start fast_read', 'end fast_read', 'end slow_read']);
    expect(results.map((result) => [result.tool, result.isError])).toEqual([
      ['slow_read', false],
      ['fast_read', false],
      ['shell', true],
    ]);
    expect(records.map((entry) => `${entry.method} ${entry.record.tool}`)).toEqual([
      'toolCalled slow_read',
      'policyDecided slow_read',
      'toolReturned slow_read',
      'toolCalled fast_read',
      'policyDecided fast_read',
      'toolReturned fast_read',
      'toolCalled shell',
      'toolReturned shell',
    ]);
  });

  it('runs one after another when any permitted call is not parallel-safe', async () => {
    const log: string[] = [];
    const { agent } = gated(log);
    const results = await agent.callTools([{ name: 'slow_read' }, { name: 'write' }, { name: 'fast_read' }]);
    expect(log).toEqual([
      'start slow_read',
      'end slow_read',
      'start write',
      'end write',
      'start fast_read',
      'end fast_read',
    ]);
    expect(results.map((result) => result.tool)).toEqual(['slow_read', 'write', 'fast_read']);
  });

  it('runs a batch concurrently only when each call is parallel-safe with its own parameters', async () => {
    let inFlight = 0;
    let most = 0;
    const request = defineTool({
      name: 'request',
      description: 'Send a request.',
      input: z.object({ method: z.string().describe('the method') }),
      parallelSafe: ({ method }) => method === 'GET' || method === 'HEAD',
      run: async ({ method }) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return { method };
      },
    });
    const agent = new ToolGate(new ToolRegistry().register(request)).forAgent({
      name: 'a',
      tools: ['request'],
    });
    const batch = (...methods: string[]) =>
      agent.callTools(methods.map((method) => ({ name: 'request', parameters: { method } })));
    await batch('GET', 'HEAD', 'GET');
    expect(most).toBe(3);
    most = 0;
    const results = await batch('GET', 'POST', 'GET');
    expect(most).toBe(1);
    expect(results.map((result) => !result.isError && result.output)).toEqual([
      { method: 'GET' },
      { method: 'POST' },
      { method: 'GET' },
    ]);
  });
});

describe('ToolGate subjects', () => {
  const secretRule = new RulePolicy({
    default: 'allow',
    rules: [{ tools: ['read_file'], paths: ['.secret'], decision: 'deny' }],
  });
  const pubRule = new RulePolicy({
    default: 'deny',
    rules: [{ tools: ['read_file'], paths: ['pub/**'], decision: 'allow' }],
  });
  const readFile = (subject?: (path: string) => { paths: string[] }) => {
    const read: string[] = [];
    const tool = defineTool({
      name: 'read_file',
      description: 'Reads a file.',
      input: z.object({ path: z.string().describe('the path') }),
      run: ({ path }) => {
        read.push(path);
        return { path };
      },
      ...(subject ? { policySubject: ({ path }: { path: string }) => subject(path) } : {}),
    });
    return { tool, read };
  };

  it('fails closed for an in-process tool without a subject hook', async () => {
    const { tool, read } = readFile();
    const registry = new ToolRegistry().register(tool);
    const denied = await new ToolGate(registry, { policy: secretRule })
      .forAgent({ name: 'a', tools: ['read_file'] })
      .callTool('read_file', { path: 'pub/a.txt' });
    expect(denied.isError && denied.error.code).toBe('PERMISSION_DENIED');
    const notAllowed = await new ToolGate(registry, { policy: pubRule })
      .forAgent({ name: 'a', tools: ['read_file'] })
      .callTool('read_file', { path: 'pub/a.txt' });
    expect(notAllowed.isError && notAllowed.error.code).toBe('PERMISSION_DENIED');
    expect(read).toEqual([]);
  });

  function remote(subject?: (name: string, parameters: JsonObject) => Promise<PolicySubject | undefined>) {
    const called: JsonObject[] = [];
    const resolver: ToolResolver = {
      has: async (name) => name === 'read_file',
      describe: async (name) =>
        name === 'read_file'
          ? {
              name,
              description: 'Reads a file.',
              inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
            }
          : undefined,
      call: async (_name, parameters) => {
        called.push(parameters);
        return { read: parameters.path ?? null };
      },
      ...(subject ? { subject } : {}),
    };
    return { resolver, called };
  }

  it("uses the resolver's subject for a remote tool, and fails closed without one", async () => {
    const bare = remote();
    const agent = (resolver: ToolResolver, policy: Policy) =>
      new ToolGate(new ToolRegistry().setResolver(resolver), { policy }).forAgent({
        name: 'a',
        tools: ['read_file'],
      });
    const unknown = await agent(bare.resolver, secretRule).callTool('read_file', { path: 'pub/a.txt' });
    expect(unknown.isError && unknown.error.code).toBe('PERMISSION_DENIED');
    expect(bare.called).toEqual([]);

    const asked: [string, JsonObject][] = [];
    const mapped = remote(async (name, parameters) => {
      asked.push([name, parameters]);
      return { paths: [String(parameters.path).replace(/^\.\//, '')] };
    });
    expect(
      (await agent(mapped.resolver, secretRule).callTool('read_file', { path: 'pub/a.txt' })).isError,
    ).toBe(false);
    expect((await agent(mapped.resolver, pubRule).callTool('read_file', { path: 'pub/a.txt' })).isError).toBe(
      false,
    );
    const secret = await agent(mapped.resolver, secretRule).callTool('read_file', { path: './.secret' });
    expect(secret.isError && secret.error.code).toBe('PERMISSION_DENIED');
    expect(mapped.called).toEqual([{ path: 'pub/a.txt' }, { path: 'pub/a.txt' }]);
    expect(asked[0]).toEqual(['read_file', { path: 'pub/a.txt' }]);

    const undecided = remote(async () => undefined);
    const refused = await agent(undecided.resolver, secretRule).callTool('read_file', { path: 'pub/a.txt' });
    expect(refused.isError && refused.error.code).toBe('PERMISSION_DENIED');
    expect(undecided.called).toEqual([]);
  });

  it("refuses the call when the resolver's subject rejects, without calling the tool", async () => {
    const failing = remote(async () => {
      throw new ToolgateError('INVALID_PATH', 'the path holds a NUL byte');
    });
    const result = await new ToolGate(new ToolRegistry().setResolver(failing.resolver))
      .forAgent({ name: 'a', tools: ['read_file'] })
      .callTool('read_file', { path: 'x' });
    expect(result.isError && result.error).toEqual({
      code: 'INVALID_PATH',
      message: 'the path holds a NUL byte',
    });
    expect(failing.called).toEqual([]);
  });

  it('asks the approver only after every command passed, showing the parsed commands', async () => {
    const ran: string[] = [];
    const shell = defineTool({
      name: 'shell',
      description: 'Runs a line.',
      input: z.object({ command: z.string().describe('the line') }),
      policySubject: ({ command }) => ({ commands: command.split(/\s*;\s*/).map((part) => part.split(' ')) }),
      run: ({ command }) => {
        ran.push(command);
        return {};
      },
    });
    const requests: ApprovalRequest[] = [];
    const gate = new ToolGate(new ToolRegistry().register(shell), {
      policy: new RulePolicy({
        default: 'deny',
        rules: [{ tools: ['shell'], commands: ['npm test', 'npm run lint'], decision: 'ask' }],
      }),
      approver: (request) => {
        requests.push(request);
        return true;
      },
    });
    const agent = gate.forAgent({ name: 'a', tools: ['shell'] });
    const compound = await agent.callTool('shell', { command: 'npm test; touch X' });
    expect(compound.isError && compound.error.message).toContain('command "touch X": no rule matched');
    expect(requests).toEqual([]);
    expect((await agent.callTool('shell', { command: 'npm test; npm run lint' })).isError).toBe(false);
    expect(requests.map((request) => request.subject)).toEqual([
      {
        commands: [
          ['npm', 'test'],
          ['npm', 'run', 'lint'],
        ],
      },
    ]);
    expect(ran).toEqual(['npm test; npm run lint']);
  });
});
