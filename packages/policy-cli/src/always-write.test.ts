import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PolicyRequest } from '@toolgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { writeAlwaysRule } from './always-write.js';
import { loadPolicyFiles } from './policy-files.js';

const managed = `# the organisation's layer: nobody below loosens it
rules:
  - { tools: [write_file], decision: ask, reason: writes need a human }
  - { tools: ['*'], paths: ['secret/**'], decision: deny, reason: secrets stay put }
`;
const user = `# my answers, kept by hand and by toolgate
default: ask # ask about anything no rule names
rules:
  - tools: [list_dir] # listing is harmless
    decision: allow
`;

const read = (path: string, agent = 'lead'): PolicyRequest => ({
  agent,
  tool: 'read_file',
  parameters: { path },
  subject: { paths: [path] },
});

describe('writeAlwaysRule', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const layers = () => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-always-'));
    writeFileSync(join(dir, 'managed.yaml'), managed);
    writeFileSync(join(dir, 'user.yaml'), user);
    return { files: [join(dir, 'managed.yaml'), join(dir, 'user.yaml')], file: join(dir, 'user.yaml') };
  };

  it('appends the rule to the user layer keeping its comments, and the next load decides the same call without asking', async () => {
    const { files, file } = layers();
    const { policy } = loadPolicyFiles(files);
    expect(policy.decide(read('notes/a.txt')).decision).toBe('ask');
    const done = await writeAlwaysRule({
      file,
      policy,
      request: read('notes/a.txt'),
      decision: 'allow',
      reason: 'answered always',
    });
    expect(done).toMatchObject({ written: true, verdict: { decision: 'allow' } });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# my answers, kept by hand and by toolgate');
    expect(text).toContain('default: ask # ask about anything no rule names');
    expect(text).toContain('- tools: [list_dir] # listing is harmless');
    expect(text).toContain('# written by toolgate: answered "always" (allow)');
    const again = loadPolicyFiles(files).policy;
    expect(again.decide(read('notes/a.txt'))).toMatchObject({ decision: 'allow', layer: 'user', rule: 1 });
    // the same tool on another path, or another agent on the same path, is still asked about
    expect(again.decide(read('notes/b.txt')).decision).toBe('ask');
    expect(again.decide(read('notes/a.txt', 'other')).decision).toBe('ask');
    expect(again.decide({ ...read('notes/a.txt'), tool: 'write_file' }).decision).toBe('ask');
    expect(readdirSync(dir).sort()).toEqual(['managed.yaml', 'user.yaml']); // no temporary file left
  });

  it('writes "deny always", which decides the call from then on', async () => {
    const { files, file } = layers();
    const done = await writeAlwaysRule({
      file,
      policy: loadPolicyFiles(files).policy,
      request: read('notes/a.txt'),
      decision: 'deny',
      reason: 'the user said never',
    });
    expect(done.written).toBe(true);
    expect(loadPolicyFiles(files).policy.decide(read('notes/a.txt'))).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('the user said never'),
    });
  });

  it('writes nothing when a rule, not the default, asked: an allow below cannot loosen it', async () => {
    const { files, file } = layers();
    const request: PolicyRequest = {
      agent: 'lead',
      tool: 'write_file',
      parameters: { path: 'a.txt' },
      subject: { paths: ['a.txt'] },
    };
    const done = await writeAlwaysRule({
      file,
      policy: loadPolicyFiles(files).policy,
      request,
      decision: 'allow',
      reason: 'x',
    });
    expect(done).toMatchObject({ written: false, why: expect.stringContaining('writes need a human') });
    expect(readFileSync(file, 'utf8')).toBe(user);
  });

  it('writes nothing for a call whose subject is unknown or touches nothing', async () => {
    const { files, file } = layers();
    const policy = loadPolicyFiles(files).policy;
    const unknown = await writeAlwaysRule({
      file,
      policy,
      request: { agent: 'lead', tool: 'remote', parameters: {} },
      decision: 'allow',
      reason: 'x',
    });
    expect(unknown).toMatchObject({ written: false, why: expect.stringContaining('could not tell') });
    const nothing = await writeAlwaysRule({
      file,
      policy,
      request: { agent: 'lead', tool: 'oracle', parameters: {}, subject: {} },
      decision: 'allow',
      reason: 'x',
    });
    expect(nothing).toMatchObject({ written: false, why: expect.stringContaining('every call of the tool') });
    expect(readFileSync(file, 'utf8')).toBe(user);
  });

  it('names a path with glob characters literally: the rule covers that path and no other', async () => {
    const { files, file } = layers();
    const odd = 'src/a[1]*{x,y}.ts';
    await writeAlwaysRule({
      file,
      policy: loadPolicyFiles(files).policy,
      request: read(odd),
      decision: 'allow',
      reason: 'x',
    });
    const again = loadPolicyFiles(files).policy;
    expect(again.decide(read(odd)).decision).toBe('allow');
    for (const other of ['src/a1.ts', 'src/a1x.ts', 'src/a[1]zz.ts', 'src/ax.ts'])
      expect(again.decide(read(other)).decision).toBe('ask');
  });

  it('keeps an edit made by hand since the policy was loaded, and every one of several answers at once', async () => {
    const { files, file } = layers();
    const policy = loadPolicyFiles(files).policy; // loaded before the edit
    writeFileSync(file, `${user}  - { tools: [glob], decision: allow } # added by hand\n`);
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) =>
        writeAlwaysRule({ file, policy, request: read(`notes/${name}.txt`), decision: 'allow', reason: 'x' }),
      ),
    );
    expect(answers.every((answer) => answer.written)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# added by hand');
    const again = loadPolicyFiles(files).policy;
    expect(again.document.rules).toHaveLength(2 + 2 + 4);
    expect(
      again.decide({ agent: 'lead', tool: 'glob', parameters: {}, subject: { paths: ['x'] } }).decision,
    ).toBe('allow');
    for (const name of ['a', 'b', 'c', 'd'])
      expect(again.decide(read(`notes/${name}.txt`)).decision).toBe('allow');
  });

  it('writes a JSON layer as JSON', async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-always-'));
    const file = join(dir, 'user.json');
    writeFileSync(file, '{"default":"ask","rules":[]}');
    await writeAlwaysRule({
      file,
      policy: loadPolicyFiles([file]).policy,
      request: read('a.txt'),
      decision: 'allow',
      reason: 'x',
    });
    expect(JSON.parse(readFileSync(file, 'utf8')).rules).toHaveLength(1);
    expect(loadPolicyFiles([file]).policy.decide(read('a.txt')).decision).toBe('allow');
  });
});
