import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { scratch } from './testing-fixtures/gateway.js';

describe('policy: as a list of layers', () => {
  const place = scratch();
  afterAll(() => place.remove());
  const config = (policy: string) => {
    const path = join(place.dir, 'gateway.yaml');
    writeFileSync(
      path,
      `servers:\n  fs: { command: node, args: [server.js], prefix: fs }\nclients:\n  desktop: { tools: ["fs__*"] }\nstdio: desktop\nledger: ./run.jsonl\n${policy}`,
    );
    return path;
  };

  it('layers files and inline documents, most authoritative first: a project allow under a managed deny stays denied', async () => {
    writeFileSync(
      join(place.dir, 'managed.yaml'),
      'rules:\n  - { tools: [fs__write_file], decision: deny, reason: managed says no writes }\n',
    );
    const loaded = await loadConfig(
      config(
        'policy:\n  - { layer: managed, file: ./managed.yaml }\n  - layer: project\n    default: allow\n    rules:\n      - { tools: ["fs__*"], decision: allow }\n',
      ),
    );
    const call = (tool: string) => loaded.policy.decide({ agent: 'desktop', tool, parameters: {} });
    expect(call('fs__write_file')).toMatchObject({ decision: 'deny', layer: 'managed', rule: 0 });
    expect(call('fs__read_file')).toMatchObject({ decision: 'allow', layer: 'project', rule: 0 });
  });

  it("names the layer's line and file when a layer cannot be read or is not a policy", async () => {
    await expect(
      loadConfig(config('policy:\n  - { layer: managed, file: ./nowhere.yaml }\n')),
    ).rejects.toThrow(
      /gateway\.yaml:8: policy\[0\]\.file: cannot read the policy file .*nowhere\.yaml \(ENOENT\)/,
    );
    await expect(
      loadConfig(config('policy:\n  - { layer: a, rules: [] }\n  - { layer: a, rules: [] }\n')),
    ).rejects.toThrow(/gateway\.yaml:8: policy\[0\]: two policy layers are named "a"/);
  });

  it('takes a directory as layers NAME/FILE, its .yaml, .yml and .json files in file-name order', async () => {
    const directory = join(place.dir, 'team.d');
    mkdirSync(directory);
    const deny = (who: string) => `rules:\n  - { tools: [fs__write_file], decision: deny, reason: ${who} }\n`;
    writeFileSync(join(directory, '20-later.yml'), deny('the later file'));
    writeFileSync(join(directory, '10-first.yaml'), deny('the first file'));
    writeFileSync(join(directory, '30-json.json'), '{"rules":[{"tools":["fs__shell"],"decision":"deny"}]}');
    writeFileSync(join(directory, 'README.md'), 'not a policy: ignored\n');
    const loaded = await loadConfig(
      config(
        'policy:\n  - { layer: team, file: ./team.d }\n  - layer: user\n    default: allow\n    rules: []\n',
      ),
    );
    const call = (tool: string) => loaded.policy.decide({ agent: 'desktop', tool, parameters: {} });
    // a tie goes to the first file by name, as to the first layer of the list
    expect(call('fs__write_file')).toMatchObject({
      decision: 'deny',
      layer: 'team/10-first',
      reason: expect.stringContaining('the first file'),
    });
    expect(call('fs__shell')).toMatchObject({ decision: 'deny', layer: 'team/30-json' });
    expect(call('fs__read_file')).toMatchObject({ decision: 'allow' });
  });

  it('names policy[N].file and the directory when it holds no policy file', async () => {
    mkdirSync(join(place.dir, 'empty.d'));
    writeFileSync(join(place.dir, 'empty.d', 'notes.txt'), 'no policy here\n');
    await expect(
      loadConfig(config('policy:\n  - { layer: user, rules: [] }\n  - { layer: team, file: ./empty.d }\n')),
    ).rejects.toThrow(
      /gateway\.yaml:9: policy\[1\]\.file: the policy directory .*empty\.d holds no \.yaml, \.yml or \.json file/,
    );
  });

  it('takes remember: true on the last file layer only, naming policy[N].remember otherwise', async () => {
    writeFileSync(join(place.dir, 'user.yaml'), 'default: ask\nrules: []\n');
    const loaded = await loadConfig(
      config(
        'policy:\n  - { layer: org, rules: [] }\n  - { layer: user, file: ./user.yaml, remember: true }\n',
      ),
    );
    expect(loaded.rememberFile).toBe(join(place.dir, 'user.yaml'));
    await expect(
      loadConfig(
        config(
          'policy:\n  - { layer: user, file: ./user.yaml, remember: true }\n  - { layer: org, rules: [] }\n',
        ),
      ),
    ).rejects.toThrow(
      /gateway\.yaml:8: policy\[0\]\.remember: only the last layer, the least authoritative, may remember/,
    );
    mkdirSync(join(place.dir, 'mine.d'));
    writeFileSync(join(place.dir, 'mine.d', 'a.yaml'), 'rules: []\n');
    await expect(
      loadConfig(
        config(
          'policy:\n  - { layer: org, rules: [] }\n  - { layer: mine, file: ./mine.d, remember: true }\n',
        ),
      ),
    ).rejects.toThrow(
      /gateway\.yaml:9: policy\[1\]\.remember: .*mine\.d is a directory; answers are written to one file/,
    );
  });
});
