import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configWith, scratchDir } from '../test/fixtures.js';
import { runDemo } from './demo.js';

describe('oracle-grove replay', () => {
  it('replays a recorded run with every tool switched off into a byte-identical ledger', async () => {
    const dir = await scratchDir();
    const original = join(dir, 'original.jsonl');
    await runDemo({ env: {}, ledger: original, seed: 'lichen', turns: 3, trespass: true });
    // An MCP_ORACLE pointing nowhere proves no server is started: replay ignores the gate entirely.
    const replay = await runDemo({
      env: { MCP_SERVERS: 'definitely-not-a-command' },
      ledger: join(dir, 'replay.jsonl'),
      replay: original,
    });
    expect(replay.transport).toBe('replay');
    expect(replay.identical).toBe(true);
    expect((await readFile(join(dir, 'replay.jsonl'))).equals(await readFile(original))).toBe(true);
  });

  it('fails loudly, naming the seq and the difference, when the scenario changed', async () => {
    const dir = await scratchDir();
    const original = join(dir, 'original.jsonl');
    await runDemo({ env: {}, ledger: original, turns: 2 });
    const configDir = await configWith(
      'agents/scene-whisperer.yaml',
      'name: scene-whisperer\nhandler: generic\npersona: A different voice.\ntools: []\nemits: [world.observed]\nsubscribes: [world.observed]\n',
    );
    const error = await runDemo({
      env: {},
      configDir,
      ledger: join(dir, 'replay.jsonl'),
      replay: original,
    }).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error?.message).toMatch(/seq \d+/);
    expect(error?.message).toMatch(/seed/);
  });

  it('refuses to replay into the file it reads', async () => {
    const dir = await scratchDir();
    const original = join(dir, 'original.jsonl');
    await runDemo({ env: {}, ledger: original, turns: 1 });
    await expect(runDemo({ env: {}, ledger: original, replay: original })).rejects.toThrow(
      'are the same file',
    );
  });

  it('says clearly when the file to replay does not exist', async () => {
    const dir = await scratchDir();
    await writeFile(join(dir, 'placeholder'), '');
    await expect(
      runDemo({ env: {}, ledger: join(dir, 'r.jsonl'), replay: join(dir, 'missing.jsonl') }),
    ).rejects.toThrow('cannot read it; give the path of a ledger the demo wrote');
  });
});

describe('oracle-grove replay of a tampered recording', () => {
  it('refuses a recording whose hash chain is broken, naming the record, before anything runs', async () => {
    const dir = await scratchDir();
    const original = join(dir, 'original.jsonl');
    await runDemo({ env: {}, ledger: original, turns: 1 });
    const text = await readFile(original, 'utf8');
    await writeFile(original, text.replace(/"omen":"[^"]+"/, '"omen":"A forged omen."'));
    await expect(runDemo({ env: {}, ledger: join(dir, 'replay.jsonl'), replay: original })).rejects.toThrow(
      /bad record at seq \d+|seq \d+ .*hash/,
    );
  });
});
