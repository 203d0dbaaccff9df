import { writeFileSync } from 'node:fs';
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
    ).rejects.toThrow(/gateway\.yaml:8: policy\[0\]\.file: cannot read .*nowhere\.yaml: ENOENT/);
    await expect(
      loadConfig(config('policy:\n  - { layer: a, rules: [] }\n  - { layer: a, rules: [] }\n')),
    ).rejects.toThrow(/gateway\.yaml:8: policy\[0\]: two policy layers are named "a"/);
  });
});
