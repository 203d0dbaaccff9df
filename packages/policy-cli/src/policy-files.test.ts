import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPolicyFiles } from './policy-files.js';

const root = mkdtempSync(join(tmpdir(), 'toolgate-policy-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(root, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe('loadPolicyFiles', () => {
  it('layers files most authoritative first: a project allow under a managed deny stays denied', () => {
    const managed = write(
      'managed.yaml',
      'rules:\n  - { tools: [shell], commands: ["curl *"], decision: deny }\n',
    );
    const project = write(
      'project.yaml',
      'default: allow\nrules:\n  - { tools: [shell], decision: allow }\n',
    );
    const { policy, layers } = loadPolicyFiles([managed, project]);
    expect(layers.map((layer) => [layer.name, layer.start, layer.rules])).toEqual([
      ['managed', 0, 1],
      ['project', 1, 1],
    ]);
    const curl = { agent: 'a', tool: 'shell', parameters: {}, subject: { commands: [['curl', 'x']] } };
    expect(policy.decide(curl)).toMatchObject({ decision: 'deny', layer: 'managed', rule: 0 });
    expect(policy.decide({ ...curl, subject: { commands: [['ls']] } })).toMatchObject({
      decision: 'allow',
      layer: 'project',
    });
  });

  it('names a layer NAME=PATH, and refuses two layers that would share a name', () => {
    const first = write('a/policy.yaml', 'rules: []\n');
    const second = write('b/policy.yaml', 'rules: []\n');
    expect(loadPolicyFiles([`org=${first}`, second]).layers.map((layer) => layer.name)).toEqual([
      'org',
      'policy',
    ]);
    expect(() => loadPolicyFiles([first, second])).toThrow(
      `the policy files ${first} and ${second} would both be layer "policy": name one of them with NAME=PATH`,
    );
  });

  it('refuses an empty directory and no files at all, saying what to give', () => {
    mkdirSync(join(root, 'empty'));
    expect(() => loadPolicyFiles([join(root, 'empty')])).toThrow('holds no .yaml, .yml or .json file');
    expect(() => loadPolicyFiles([])).toThrow('no policy file given');
  });
});
