import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetRules, listRules } from './rules-forget.js';

const user = `# my answers, kept by hand and by toolgate
default: ask # ask about anything no rule names
rules:
  - tools: [list_dir] # listing is harmless
    decision: allow
  # written by toolgate: answered "always" (allow)
  - { tools: [read_file], agents: [lead], paths: [a.txt], decision: allow, reason: answered always }
  - { tools: [read_file], agents: [lead], paths: [b.txt], decision: deny, reason: answered always }
`;

describe('forgetRules', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-forget-'));
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('removes the rules named by number, keeping the others and the comments', async () => {
    const path = file('user.yaml', user);
    expect((await listRules(path)).map((rule) => rule.paths?.[0] ?? rule.tools?.[0])).toEqual([
      'list_dir',
      'a.txt',
      'b.txt',
    ]);
    const removed = await forgetRules(path, [2]);
    expect(removed).toEqual([expect.objectContaining({ paths: ['a.txt'], decision: 'allow' })]);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('# my answers, kept by hand and by toolgate');
    expect(text).toContain('- tools: [list_dir] # listing is harmless');
    expect(text).not.toContain('a.txt');
    expect((await listRules(path)).map((rule) => rule.paths?.[0] ?? rule.tools?.[0])).toEqual([
      'list_dir',
      'b.txt',
    ]);
    await forgetRules(path, [1, 2]);
    expect(await listRules(path)).toEqual([]);
    expect(readdirSync(dir)).toEqual(['user.yaml']); // no lock or temporary file left
  });

  it('refuses a number that names no rule, changing nothing', async () => {
    const path = file('user.yaml', user);
    await expect(forgetRules(path, [4])).rejects.toThrow(
      /has 3 rule\(s\), numbered 1 to 3; there is no rule 4/,
    );
    expect(readFileSync(path, 'utf8')).toBe(user);
  });

  it('removes a rule from a JSON layer', async () => {
    const path = file(
      'user.json',
      JSON.stringify({
        default: 'ask',
        rules: [
          { tools: ['a'], decision: 'allow' },
          { tools: ['b'], decision: 'deny' },
        ],
      }),
    );
    await forgetRules(path, [1]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      default: 'ask',
      rules: [{ tools: ['b'], decision: 'deny' }],
    });
  });
});
