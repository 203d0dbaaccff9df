import { run } from '@openai/agents';
import { assistantMessage, functionCall } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { agentsTools } from './agents-tools.js';
import {
  expectWait,
  ledgerEvents,
  pixel,
  recordedGate,
  scribeLog,
  scriptedAgent,
  toolOutputsSent,
  waitSeen,
  waitStarted,
} from './test-support/fixtures.js';

describe('order, cancellation and content through Agents run()', () => {
  it('runs a turn of calls that are not parallel-safe one at a time, recorded in the model order', async () => {
    const { gate, store } = recordedGate();
    const { tools, runOptions } = await agentsTools(
      gate.forAgent({ name: 'scribe', tools: ['scribe', 'oracle'] }),
    );
    const lines = ['one', 'two', 'three', 'four'];
    const { agent } = scriptedAgent('scribe', tools, [
      [
        ...lines.slice(0, 2).map((line, i) => functionCall('scribe', { line }, { callId: `c${i}` })),
        functionCall('oracle', { seed: 'between' }, { callId: 'c-oracle' }),
        ...lines.slice(2).map((line, i) => functionCall('scribe', { line }, { callId: `c${i + 2}` })),
      ],
      [assistantMessage('written')],
    ]);
    scribeLog.most = 0;
    scribeLog.order.length = 0;
    await run(agent, 'write', runOptions);
    expect(scribeLog.most).toBe(1);
    expect(scribeLog.order).toEqual(lines);
    const called = (await ledgerEvents(store))
      .filter((event) => event.kind === 'tool.called')
      .map((event) => (event.payload as { parameters: { line?: string; seed?: string } }).parameters);
    expect(called).toEqual([
      { line: 'one' },
      { line: 'two' },
      { seed: 'between' },
      { line: 'three' },
      { line: 'four' },
    ]);
  });

  it('keeps calls that are not parallel-safe apart even when the run is started without the run options', async () => {
    const { gate } = recordedGate();
    const { tools } = await agentsTools(gate.forAgent({ name: 'scribe', tools: ['scribe'] }));
    const { agent } = scriptedAgent('scribe', tools, [
      ['a', 'b', 'c'].map((line) => functionCall('scribe', { line }, { callId: line })),
      [assistantMessage('written')],
    ]);
    scribeLog.most = 0;
    await run(agent, 'write');
    expect(scribeLog.most).toBe(1);
  });

  it("hands the run's abort signal to the tool; the call ends CANCELLED and is recorded", async () => {
    const { gate, store } = recordedGate();
    const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'waiter', tools: ['wait'] }));
    const { agent } = scriptedAgent('waiter', tools, [[functionCall('wait', {}, { callId: 'c1' })]]);
    const controller = new AbortController();
    expectWait();
    const running = run(agent, 'wait', { ...runOptions, signal: controller.signal });
    const settled = running.then(
      () => 'finished',
      () => 'failed',
    );
    await waitStarted;
    controller.abort();
    await settled;
    expect(waitSeen.signal?.aborted).toBe(true);
    const events = await ledgerEvents(store);
    expect(events.map((event) => event.kind)).toEqual(['tool.called', 'policy.decided', 'tool.returned']);
    expect(events[2]?.payload).toMatchObject({ isError: true, error: { code: 'CANCELLED' } });
  });

  it('gives the model an image result as Agents multi-part output, and records it', async () => {
    const { gate, store } = recordedGate();
    const { tools, runOptions } = await agentsTools(gate.forAgent({ name: 'artist', tools: ['painter'] }));
    const { agent, model } = scriptedAgent('artist', tools, [
      [functionCall('painter', { subject: 'moss' }, { callId: 'c1' })],
      [assistantMessage('painted')],
    ]);
    await run(agent, 'paint', runOptions);
    const sent = toolOutputsSent(model, 1).get('c1');
    expect(sent).toEqual([
      { type: 'input_text', text: '{"painted":"moss"}' },
      expect.objectContaining({ type: 'input_image' }),
    ]);
    expect(JSON.stringify(sent)).toContain(pixel);
    const events = await ledgerEvents(store);
    expect(events[2]?.payload).toMatchObject({
      content: [{ type: 'image', data: pixel, mimeType: 'image/png' }],
    });
  });
});
