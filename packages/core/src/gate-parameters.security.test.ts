import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolGate } from './gate.js';
import type { Recorder } from './recorder.js';
import { ToolRegistry } from './registry.js';
import { defineTool } from './tool.js';

function recordingGate(options: { parameterChars?: number } = {}) {
  const records: { kind: string; record: unknown }[] = [];
  let runs = 0;
  const recorder: Recorder = {
    toolCalled: (record) => void records.push({ kind: 'tool.called', record }),
    policyDecided: (record) => void records.push({ kind: 'policy.decided', record }),
    toolReturned: (record) => void records.push({ kind: 'tool.returned', record }),
  };
  const registry = new ToolRegistry().register(
    defineTool({
      name: 'note',
      description: 'Keeps a note.',
      input: z.object({ text: z.string().describe('the note') }),
      run: ({ text }) => {
        runs++;
        return { length: text.length };
      },
    }),
  );
  const gate = new ToolGate(registry, { recorder, limits: options });
  return { agent: gate.forAgent({ name: 'writer', tools: ['note'] }), records, runs: () => runs };
}

describe('the gate bounds a call’s parameters before recording or running it', () => {
  it('refuses parameters past limits.parameterChars with INVALID_PARAMETERS, recording only their size and digest', async () => {
    const { agent, records, runs } = recordingGate({ parameterChars: 1000 });
    const payload = 'PAYLOAD'.repeat(1000);
    const result = await agent.callTool('note', { text: payload });
    expect(result.isError && result.error.code).toBe('INVALID_PARAMETERS');
    expect(result.isError && result.error.message).toContain('limits.parameterChars');
    expect(runs()).toBe(0);
    const ledger = JSON.stringify(records);
    expect(ledger).not.toContain('PAYLOADPAYLOAD');
    expect(ledger.length).toBeLessThan(2000);
    expect(records.map((entry) => entry.kind)).toEqual(['tool.called', 'tool.returned']);
    const called = records[0]!.record as { parameters: { omitted: { chars: number; sha256: string } } };
    expect(called.parameters.omitted.chars).toBe(JSON.stringify({ text: payload }).length);
    expect(called.parameters.omitted.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses them in the pre-flight check too', async () => {
    const { agent, records } = recordingGate({ parameterChars: 1000 });
    const checked = await agent.check('note', { text: 'x'.repeat(2000) });
    expect(checked).toMatchObject({ status: 'refused', error: { code: 'INVALID_PARAMETERS' } });
    expect(records).toEqual([]);
  });

  it('runs and records parameters within the bound as they are', async () => {
    const { agent, records, runs } = recordingGate({ parameterChars: 1000 });
    const result = await agent.callTool('note', { text: 'short' });
    expect(result.isError).toBe(false);
    expect(runs()).toBe(1);
    expect((records[0]!.record as { parameters: unknown }).parameters).toEqual({ text: 'short' });
  });

  it('bounds parameters at 1 MiB of JSON text by default', async () => {
    const { agent, records, runs } = recordingGate();
    const refused = await agent.callTool('note', { text: 'x'.repeat(1024 * 1024) });
    expect(refused.isError && refused.error.code).toBe('INVALID_PARAMETERS');
    expect(runs()).toBe(0);
    expect(JSON.stringify(records).length).toBeLessThan(2000);
    const kept = await agent.callTool('note', { text: 'x'.repeat(1024 * 1024 - 20) });
    expect(kept.isError).toBe(false);
  });

  it('refuses a limits.parameterChars that is not a positive number', () => {
    expect(() => recordingGate({ parameterChars: 0 })).toThrow(/limits.parameterChars/);
  });
});
