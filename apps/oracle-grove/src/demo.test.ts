import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configWith, eventsOf, scratchDir } from '../test/fixtures.js';
import { runDemo } from './demo.js';
import { type Model, type ModelRequest, OfflineModel } from './model.js';

const inProcess = { env: {} };

describe('oracle-grove in-process', () => {
  it('writes the same ledger bytes for the same seed, and different bytes for another seed', async () => {
    const dir = await scratchDir();
    const first = await runDemo({ ...inProcess, ledger: join(dir, 'a.jsonl'), seed: 'moss', turns: 3 });
    await runDemo({ ...inProcess, ledger: join(dir, 'b.jsonl'), seed: 'moss', turns: 3 });
    await runDemo({ ...inProcess, ledger: join(dir, 'c.jsonl'), seed: 'fern', turns: 3 });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((name) => readFile(join(dir, `${name}.jsonl`))));
    expect(a!.equals(b!)).toBe(true);
    expect(a!.equals(c!)).toBe(false);
    expect(first.transport).toBe('in-process');
  });

  it('runs the cast in order, records the omen on oracle.spoke and every tool call in the ledger', async () => {
    const dir = await scratchDir();
    const result = await runDemo({ ...inProcess, ledger: join(dir, 'run.jsonl'), turns: 2 });
    const events = eventsOf(await readFile(join(dir, 'run.jsonl'), 'utf8'));
    expect(events.map((event) => event.kind)).toEqual([
      'run.started',
      'tools.described',
      'world.observed',
      ...['world.observed', 'tool.called', 'policy.decided', 'tool.returned', 'oracle.spoke'],
      ...['world.observed', 'tool.called', 'policy.decided', 'tool.returned', 'oracle.spoke'],
      'run.finished',
    ]);
    const spoke = events.filter((event) => event.kind === 'oracle.spoke');
    const returned = events.filter((event) => event.kind === 'tool.returned');
    expect(spoke.map((event) => event.payload.omen)).toEqual(
      returned.map((event) => (event.payload.output as { omen: string }).omen),
    );
    const scenes = events.filter(
      (event) => event.kind === 'world.observed' && event.actor === 'scene-whisperer',
    );
    const seeds = events
      .filter((event) => event.kind === 'tool.called')
      .map((event) => event.payload.parameters);
    expect(seeds).toEqual(scenes.map((scene) => ({ seed: scene.payload.text })));
    expect(result.summary).toMatchObject({
      turns: 2,
      toolCalls: 2,
      refusals: 0,
      failures: 0,
      events: events.length,
    });
  });

  it('refuses the trespasser at the runtime, records the refusal, and goes on', async () => {
    const dir = await scratchDir();
    const result = await runDemo({ ...inProcess, ledger: join(dir, 'run.jsonl'), turns: 2, trespass: true });
    const events = eventsOf(await readFile(join(dir, 'run.jsonl'), 'utf8'));
    const refusals = events.filter((event) => event.kind === 'tool.returned' && event.actor === 'trespasser');
    expect(refusals).toHaveLength(2);
    expect(refusals[0]!.payload.error).toEqual({
      code: 'CAPABILITY_VIOLATION',
      message:
        'agent "trespasser" is not granted tool "oracle" (granted: none); add it to the agent manifest\'s "tools" to allow it',
    });
    expect(events.filter((event) => event.kind === 'agent.failed').map((event) => event.actor)).toEqual([
      'trespasser',
      'trespasser',
    ]);
    expect(events.filter((event) => event.kind === 'oracle.spoke').map((event) => event.actor)).toEqual([
      'fortune-teller',
      'fortune-teller',
    ]);
    expect(events.at(-1)?.kind).toBe('run.finished');
    expect(result.summary).toMatchObject({ refusals: 2, failures: 2 });
  });

  it('stops cleanly at the event budget and records why', async () => {
    const dir = await scratchDir();
    const configDir = await configWith(
      'scenarios/oracle-grove.yaml',
      'title: T\ngoal: G\nseed: s\ngenesis: "{seed}"\ncast: [scene-whisperer, fortune-teller]\nturns: 3\nbudget:\n  maxEvents: 6\n',
    );
    const result = await runDemo({ ...inProcess, configDir, ledger: join(dir, 'run.jsonl') });
    const events = eventsOf(await readFile(join(dir, 'run.jsonl'), 'utf8'));
    expect(events.at(-1)).toMatchObject({
      kind: 'run.finished',
      payload: { reason: 'event budget of 6 reached' },
    });
    expect(result.summary.reason).toBe('event budget of 6 reached');
  });

  it('refuses to overwrite a ledger the user named', async () => {
    const dir = await scratchDir();
    const ledger = join(dir, 'run.jsonl');
    await runDemo({ ...inProcess, ledger, turns: 1 });
    await expect(runDemo({ ...inProcess, ledger, turns: 1 })).rejects.toThrow(
      `ledger ${ledger} already exists; pass another --ledger or delete it`,
    );
  });

  it('refuses a turn count that is not a whole number', async () => {
    const dir = await scratchDir();
    await expect(runDemo({ ...inProcess, ledger: join(dir, 'x.jsonl'), turns: Number.NaN })).rejects.toThrow(
      '--turns must be a whole number of at least 1, not NaN',
    );
  });
});

describe('oracle-grove prompts', () => {
  it('prompts with the persona and subscribed events, and the AVAILABLE TOOLS block only for the granted agent', async () => {
    const requests: ModelRequest[] = [];
    const offline = new OfflineModel();
    const model: Model = {
      name: 'offline',
      complete: (request) => {
        requests.push(request);
        return offline.complete(request);
      },
    };
    const dir = await scratchDir();
    await runDemo({ env: {}, ledger: join(dir, 'run.jsonl'), turns: 2, model });
    const teller = requests.filter((request) => request.agent === 'fortune-teller');
    const whisperer = requests.filter((request) => request.agent === 'scene-whisperer');
    expect(teller).toHaveLength(2);
    expect(whisperer).toHaveLength(2);
    for (const request of teller) {
      expect(request.system).toMatch(/^You are the fortune-teller of the grove/);
      expect(request.prompt).toContain('AVAILABLE TOOLS\n- oracle: Draw a cryptic omen.');
      expect(request.prompt).toMatch(/The oracle answered: .+/);
    }
    for (const request of whisperer) {
      expect(request.system).toMatch(/^You are the whisper of the grove itself/);
      expect(request.prompt).not.toContain('AVAILABLE TOOLS');
      expect(request.prompt).toMatch(/^RECENT EVENTS\n- \[world\.observed\] /);
    }
    // the second turn's prompt carries what the first turn said
    expect(whisperer[1]!.prompt).toContain('[oracle.spoke] fortune-teller:');
  });
});
