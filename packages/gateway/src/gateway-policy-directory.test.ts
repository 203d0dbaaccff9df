import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changingServer,
  eventually,
  type StdioGateway,
  scratch,
  startStdioGateway,
  textOf,
} from './testing-fixtures/gateway.js';

describe('toolgate-gateway with a policy: layer that is a directory', { timeout: 120_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  const directory = join(place.dir, 'team.d');
  let gateway: StdioGateway;
  beforeAll(async () => {
    mkdirSync(directory);
    writeFileSync(join(directory, '10-base.yaml'), 'rules:\n  - { tools: [mine__hang], decision: deny }\n');
    writeFileSync(
      config,
      `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ["mine__*"] }
stdio: desktop
ledger: ./directory.ledger.jsonl
policy:
  - { layer: team, file: ./team.d }
  - layer: user
    default: allow
    rules: []
`,
    );
    gateway = await startStdioGateway(config);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });
  const note = async () =>
    textOf(await gateway.client.callTool({ name: 'mine__note', arguments: { text: 'hi' } }));

  it('a reload takes a file added to the directory, and one removed from it', async () => {
    expect(await note()).toBe('note: hi');
    const added = join(directory, '20-no-notes.yml');
    writeFileSync(added, 'rules:\n  - { tools: [mine__note], decision: deny, reason: no notes today }\n');
    process.kill(gateway.transport.pid!, 'SIGHUP');
    await eventually(async () => (await note()).includes('no notes today'));
    expect(await note()).toMatch(/^PERMISSION_DENIED: .*no notes today/);

    rmSync(added);
    process.kill(gateway.transport.pid!, 'SIGHUP');
    await eventually(async () => (await note()) === 'note: hi');
  });

  it('refuses a reload that empties the directory, naming policy[0].file, and keeps the old policy', async () => {
    rmSync(join(directory, '10-base.yaml'));
    process.kill(gateway.transport.pid!, 'SIGHUP');
    await eventually(async () => gateway.stderr().includes('reload refused'));
    expect(gateway.stderr()).toMatch(
      /reload refused, the old config is kept: .*gateway\.yaml:8: policy\[0\]\.file: the policy directory .*team\.d holds no \.yaml, \.yml or \.json file/,
    );
    expect(await note()).toBe('note: hi');
    expect(textOf(await gateway.client.callTool({ name: 'mine__hang', arguments: {} }))).toMatch(
      /^PERMISSION_DENIED: /,
    );
  });
});
