import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.js';

const root = mkdtempSync(join(tmpdir(), 'toolgate-policy-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(root, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
  });
  return { code, out: out.join(''), err: err.join('') };
}

const managed = write(
  'managed.yaml',
  `rules:
  - tools: [shell]
    commands: ["rm -rf *"]
    decision: deny
    reason: no recursive deletes
    examples: { match: ["rm -rf build"], not_match: ["rm build"] }
`,
);
const project = write(
  'project.yaml',
  `default: ask
rules:
  - { tools: [shell], commands: ["npm test"], decision: allow }
  - { tools: [shell], commands: ["rm -rf *"], decision: allow }
  - { tools: [read_file], decision: allow }
  - { tools: [read_file], decision: allow, reason: said twice }
`,
);

describe('toolgate policy check', () => {
  it('loads the layers, checks the examples and names the rules that can never decide', async () => {
    const { code, out } = await run('policy', 'check', managed, project);
    expect(out).toBe(
      `layers, most authoritative first: managed (1 rules, ${managed}), project (4 rules, ${project})\n` +
        '5 rules, 2 examples checked\n' +
        'rule 1 of layer project (allow) is unreachable: rule 0 of layer managed (deny) judges every call it could, and the strictest rule wins\n' +
        'rule 3 of layer project (allow) is shadowed: rule 2 of layer project (allow) judges every call it could, with the same decision; remove one\n' +
        '2 rule(s) never decide\n',
    );
    expect(code).toBe(1);
  });

  it('passes a policy whose every rule can decide', async () => {
    expect(await run('policy', 'check', managed)).toMatchObject({
      code: 0,
      out: expect.stringContaining('ok: every rule can decide a call'),
    });
  });

  it('refuses a rule whose example it does not judge, naming the rule and its line', async () => {
    const wrong = write(
      'wrong.yaml',
      'rules:\n  - tools: [shell]\n    commands: ["git push *"]\n    decision: ask\n    examples: { match: ["git pull"] }\n',
    );
    const { code, err } = await run('policy', 'check', wrong);
    expect(code).toBe(1);
    expect(err).toMatch(/^toolgate policy check: .*wrong\.yaml.*line 2/s);
    expect(err).toContain('git pull');
  });

  it('reads a directory as a layer per file, in name order', async () => {
    write('team/b.yaml', 'rules:\n  - { tools: [fetch], decision: ask }\n');
    write('team/a.json', '{"rules":[{"tools":["fetch"],"hosts":["*.example.com"],"decision":"allow"}]}');
    const { out } = await run('policy', 'check', join(root, 'team'));
    expect(out).toContain('layers, most authoritative first: team/a (1 rules');
    expect(out).toContain('team/b (1 rules');
  });

  it('says which file it cannot read (exit 3), and which usage it cannot follow (exit 2)', async () => {
    expect(await run('policy', 'check', join(root, 'none.yaml'))).toMatchObject({
      code: 3,
      err: expect.stringContaining(`cannot read the policy file ${join(root, 'none.yaml')} (ENOENT)`),
    });
    expect(await run('policy', 'check')).toMatchObject({
      code: 2,
      err: expect.stringContaining('needs at least one policy FILE'),
    });
    expect(await run('policy', 'lint')).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown command "policy lint"'),
    });
  });
});

describe('toolgate policy explain', () => {
  it('gives the verdict, its layer and rule, and every rule that judged each command', async () => {
    const call = JSON.stringify({
      tool: 'shell',
      subject: {
        commands: [
          ['rm', '-rf', 'build'],
          ['npm', 'test'],
        ],
      },
    });
    const { code, out } = await run('policy', 'explain', managed, project, '--call', call);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^deny \(rule 0 of layer managed\): .*no recursive deletes/);
    expect(out).toContain('command "rm -rf build":\n  managed rule 0: ');
    expect(out).toContain('  project rule 1: ');
    expect(out).toContain('command "npm test":\n  project rule 0: ');
  });

  it('refuses a call that is not JSON or names no tool', async () => {
    expect(await run('policy', 'explain', managed, '--call', '{tool')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--call is not JSON'),
    });
    expect(await run('policy', 'explain', managed, '--call', '{"parameters":{}}')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--call needs "tool"'),
    });
    expect(await run('policy', 'explain', managed)).toMatchObject({
      code: 2,
      err: expect.stringContaining('needs --call JSON'),
    });
  });
});

describe('toolgate --help', () => {
  it('shows both commands, the call shape and an example', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    for (const text of [
      'policy check FILE…',
      'policy explain FILE… --call JSON',
      '"subject"',
      'examples:',
      'exit codes:',
    ])
      expect(out).toContain(text);
  });
});
