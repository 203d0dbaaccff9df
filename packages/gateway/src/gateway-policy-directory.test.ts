import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changingServer,
  connectStdio,
  eventually,
  scratch,
  sdkClient,
  textOf,
} from './testing-fixtures/gateway.js';

describe('toolgate-gateway with a policy: layer that is a directory', { timeout: 120_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  const directory = join(place.dir, 'team.d');
  let client: Client;
  let transport: StdioClientTransport;
  let stderr: () => string;
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
    client = sdkClient();
    ({ transport, stderr } = await connectStdio(client, config));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    place.remove();
  });
  const note = async () => textOf(await client.callTool({ name: 'mine__note', arguments: { text: 'hi' } }));

  it('a reload takes a file added to the directory, and one removed from it', async () => {
    expect(await note()).toBe('note: hi');
    const added = join(directory, '20-no-notes.yml');
    writeFileSync(added, 'rules:\n  - { tools: [mine__note], decision: deny, reason: no notes today }\n');
    process.kill(transport.pid!, 'SIGHUP');
    await eventually(async () => (await note()).includes('no notes today'));
    expect(await note()).toMatch(/^PERMISSION_DENIED: .*no notes today/);

    rmSync(added);
    process.kill(transport.pid!, 'SIGHUP');
    await eventually(async () => (await note()) === 'note: hi');
  });

  it('refuses a reload that empties the directory, naming policy[0].file, and keeps the old policy', async () => {
    rmSync(join(directory, '10-base.yaml'));
    process.kill(transport.pid!, 'SIGHUP');
    await eventually(async () => stderr().includes('reload refused'));
    expect(stderr()).toMatch(
      /reload refused, the old config is kept: .*gateway\.yaml:8: policy\[0\]\.file: the policy directory .*team\.d holds no \.yaml, \.yml or \.json file/,
    );
    expect(await note()).toBe('note: hi');
    expect(textOf(await client.callTool({ name: 'mine__hang', arguments: {} }))).toMatch(
      /^PERMISSION_DENIED: /,
    );
  });
});
