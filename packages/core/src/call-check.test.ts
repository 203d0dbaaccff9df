import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ToolgateError } from './errors.js';
import { ToolGate } from './gate.js';
import { RulePolicy } from './policy.js';
import type { Recorder } from './recorder.js';
import { ToolRegistry } from './registry.js';
import type { ToolResolver } from './resolver.js';
import { defineTool } from './tool.js';

let runs = 0;
const write = defineTool({
  name: 'write_note',
  description: 'Writes a note.',
  input: z.object({ text: z.string().describe('the note') }),
  run: ({ text }) => {
    runs++;
    return { written: text.length };
  },
  policySubject: () => ({}),
});
const read = defineTool({
  name: 'read_note',
  description: 'Reads the note.',
  input: z.object({}),
  run: () => 'a note',
  policySubject: () => ({}),
});

const policy = new RulePolicy({
  default: 'deny',
  rules: [
    { tools: ['read_note'], decision: 'allow', reason: 'reads are fine' },
    { tools: ['write_note'], decision: 'ask', reason: 'writes need a person' },
  ],
});

function recording() {
  const events: string[] = [];
  const recorder: Recorder = {
    toolCalled: ({ tool }) => void events.push(`called ${tool}`),
    policyDecided: ({ tool, decision, reason }) => void events.push(`decided ${tool} ${decision}: ${reason}`),
    toolReturned: ({ tool, isError }) => void events.push(`returned ${tool} ${isError ? 'error' : 'ok'}`),
  };
  return { events, recorder };
}

function agent(options: { approver?: () => boolean; recorder?: Recorder; policy?: RulePolicy } = {}) {
  const registry = new ToolRegistry().register(write).register(read);
  return new ToolGate(registry, { policy, ...options }).forAgent({
    name: 'scribe',
    tools: ['write_note', 'read_note', 'missing'],
  });
}

describe('AgentHandle.check: the pre-flight verdict', () => {
  it('says allowed, ask (with the request) or refused, without running, asking or recording', async () => {
    const approver = vi.fn(() => true);
    const { events, recorder } = recording();
    const scribe = agent({ approver, recorder });
    runs = 0;
    expect(await scribe.check('read_note', {})).toEqual({
      status: 'allowed',
      tool: 'read_note',
      reason: 'reads are fine',
    });
    expect(await scribe.check('write_note', { text: 'hi' })).toEqual({
      status: 'ask',
      tool: 'write_note',
      reason: 'writes need a person',
      request: { agent: 'scribe', tool: 'write_note', parameters: { text: 'hi' }, subject: {} },
    });
    expect(runs).toBe(0);
    expect(approver).not.toHaveBeenCalled();
    expect(events).toEqual([]);
  });

  it('refuses an ungranted tool, an unknown tool, bad parameters and a policy deny with their codes', async () => {
    const scribe = agent({
      policy: new RulePolicy({ default: 'allow', rules: [{ tools: ['read_note'], decision: 'deny' }] }),
    });
    const ungranted = await scribe.check('burn_note', {});
    expect(ungranted).toMatchObject({ status: 'refused', error: { code: 'CAPABILITY_VIOLATION' } });
    const unknown = await scribe.check('missing', {});
    expect(unknown).toMatchObject({ status: 'refused', error: { code: 'UNKNOWN_TOOL' } });
    const bad = await scribe.check('write_note', { text: 3 });
    expect(bad).toMatchObject({
      status: 'refused',
      error: { code: 'INVALID_PARAMETERS', message: expect.stringContaining('text') },
    });
    const deny = await scribe.check('read_note', {});
    expect(deny).toMatchObject({ status: 'refused', error: { code: 'PERMISSION_DENIED' } });
    // the same error a call would return
    const called = await scribe.callTool('read_note', {});
    expect(called.isError && called.error).toEqual(deny.status === 'refused' && deny.error);
  });

  it('fails closed when the resolver fails while checking', async () => {
    const resolver: ToolResolver = {
      has: async () => true,
      describe: async () => {
        throw new ToolgateError('TRANSPORT_FAILED', 'the server is gone');
      },
      call: async () => 'never',
    };
    const registry = new ToolRegistry().setResolver(resolver);
    const handle = new ToolGate(registry).forAgent({ name: 'remote', tools: ['far'] });
    expect(await handle.check('far', {})).toEqual({
      status: 'refused',
      tool: 'far',
      error: { code: 'TRANSPORT_FAILED', message: 'the server is gone' },
    });
  });
});

describe('CallOptions.decision: an approval made outside the gate', () => {
  it('answers an ask in place of the approver, and is recorded naming who decided', async () => {
    const approver = vi.fn(() => false);
    const { events, recorder } = recording();
    const scribe = agent({ approver, recorder });
    runs = 0;
    const approved = await scribe.callTool(
      'write_note',
      { text: 'hi' },
      { decision: { approved: true, by: 'ui', reason: 'looks fine' } },
    );
    expect(approved).toMatchObject({ isError: false, output: { written: 2 } });
    const rejected = await scribe.callTool(
      'write_note',
      { text: 'no' },
      { decision: { approved: false, by: 'ui' } },
    );
    expect(rejected).toMatchObject({ isError: true, error: { code: 'PERMISSION_DENIED' } });
    expect(rejected.isError && rejected.error.message).toContain('not approved by ui');
    expect(approver).not.toHaveBeenCalled();
    expect(runs).toBe(1);
    expect(events).toEqual([
      'called write_note',
      'decided write_note allow: writes need a person; approved by ui: looks fine',
      'returned write_note ok',
      'called write_note',
      'decided write_note deny: writes need a person; not approved by ui',
      'returned write_note error',
    ]);
  });

  it('never widens a deny, and refuses a call policy allows when it is a refusal', async () => {
    const scribe = agent({ policy: new RulePolicy({ default: 'deny', rules: [] }) });
    runs = 0;
    const denied = await scribe.callTool(
      'write_note',
      { text: 'x' },
      { decision: { approved: true, by: 'ui' } },
    );
    expect(denied).toMatchObject({ isError: true, error: { code: 'PERMISSION_DENIED' } });
    expect(runs).toBe(0);
    const { events, recorder } = recording();
    const approved = await agent({ recorder }).callTool(
      'read_note',
      {},
      { decision: { approved: true, by: 'ui' } },
    );
    expect(approved).toMatchObject({ isError: false, output: 'a note' });
    expect(events[1]).toBe('decided read_note allow: reads are fine');
    const refused = await agent({ recorder }).callTool(
      'read_note',
      {},
      { decision: { approved: false, by: 'ui', reason: 'not now' } },
    );
    expect(refused).toMatchObject({ isError: true, error: { code: 'PERMISSION_DENIED' } });
    expect(events[4]).toBe('decided read_note deny: reads are fine; not approved by ui: not now');
  });

  it('approves only on approved === true', async () => {
    runs = 0;
    const decision = { approved: 'yes', by: 'ui' } as unknown as { approved: boolean; by: string };
    const result = await agent().callTool('write_note', { text: 'x' }, { decision });
    expect(result).toMatchObject({ isError: true, error: { code: 'PERMISSION_DENIED' } });
    expect(runs).toBe(0);
  });
});

describe('AgentHandle.callTools with options per call', () => {
  it("uses each call's own decision and signal in place of the batch's", async () => {
    const { events, recorder } = recording();
    const scribe = agent({ recorder });
    runs = 0;
    const stopped = AbortSignal.abort();
    const results = await scribe.callTools(
      [
        {
          name: 'write_note',
          parameters: { text: 'yes' },
          options: { decision: { approved: true, by: 'ui' } },
        },
        {
          name: 'write_note',
          parameters: { text: 'no' },
          options: { decision: { approved: false, by: 'ui' } },
        },
        { name: 'read_note', parameters: {}, options: { signal: stopped } },
        { name: 'read_note', parameters: {} },
      ],
      { decision: { approved: true, by: 'batch' } },
    );
    expect(results.map((result) => (result.isError ? result.error.code : 'ok'))).toEqual([
      'ok',
      'PERMISSION_DENIED',
      'CANCELLED',
      'ok',
    ]);
    expect(runs).toBe(1);
    expect(events.filter((line) => line.startsWith('decided write_note'))).toEqual([
      'decided write_note allow: writes need a person; approved by ui',
      'decided write_note deny: writes need a person; not approved by ui',
    ]);
  });
});
