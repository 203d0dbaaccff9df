import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.js';
import { connectStdio, eventually, filesystemServer, scratch, textOf } from '../testing-fixtures/gateway.js';

const userLayer = `# my own answers (toolgate appends to this file)
default: ask
rules: []
`;

describe('an "always" answer through toolgate-gateway', { timeout: 120_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  const user = join(place.dir, 'user.yaml');
  const asked: string[] = [];
  let remember: 'once' | 'always' = 'always';
  let approve = true;
  let client: Client;
  let transport: StdioClientTransport;
  beforeAll(async () => {
    writeFileSync(user, userLayer);
    writeFileSync(
      config,
      `servers:
  files:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(filesystemServer)}, ${JSON.stringify(place.workspace)}]
    prefix: fs
    root: ${JSON.stringify(place.workspace)}
    subjects: { read_text_file: { paths: [path] } }
clients:
  desktop: { tools: ["fs__read_text_file"] }
stdio: desktop
ledger: ./always.ledger.jsonl
policy:
  - layer: managed
    rules:
      - { tools: ["fs__*"], paths: ["**/secret/**"], decision: deny, reason: secrets stay put }
  - { layer: user, file: ./user.yaml, remember: true }
`,
    );
    client = new Client({ name: 'always-test', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const { params } = request;
      const schema = ('requestedSchema' in params ? params.requestedSchema : { properties: {} }) as {
        properties: Record<string, { enum?: string[] }>;
      };
      asked.push(`${request.params.message} | remember: ${schema.properties.remember?.enum?.join('/')}`);
      return { action: 'accept', content: { approve, remember } };
    });
    ({ transport } = await connectStdio(client, config));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    place.remove();
  });
  const read = async (path: string) =>
    textOf(
      await client.callTool({ name: 'fs__read_text_file', arguments: { path: join(place.workspace, path) } }),
    );

  it('asks once, writes the rule to the user layer keeping its comment, and the next call is not asked', async () => {
    expect(await read('hello.txt')).toContain('hello from the workspace');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('remember: once/session/always');
    const text = readFileSync(user, 'utf8');
    expect(text).toContain('# my own answers (toolgate appends to this file)');
    expect(text).toContain('paths: [hello.txt]');
    expect(text).toContain('clients: [desktop]');

    expect(await read('hello.txt')).toContain('hello from the workspace');
    expect(asked).toHaveLength(1); // judged by the written rule, without asking

    // the same tool on another path is asked about again
    writeFileSync(join(place.workspace, 'other.txt'), 'another file\n');
    remember = 'once';
    expect(await read('other.txt')).toContain('another file');
    expect(asked).toHaveLength(2);
  });

  it('a reload sees the rule: still not asked after SIGHUP, and loadConfig decides by it', async () => {
    process.kill(transport.pid!, 'SIGHUP');
    const loaded = await loadConfig(config);
    expect(
      loaded.policy.decide({
        agent: 'desktop',
        client: 'desktop',
        tool: 'fs__read_text_file',
        parameters: {},
        subject: { paths: ['hello.txt'] },
      }),
    ).toMatchObject({ decision: 'allow', layer: 'user', rule: 0 });
    await eventually(async () => (await read('hello.txt')).includes('hello from the workspace'));
    expect(asked).toHaveLength(2);
  });

  it('"deny always" refuses the next call without asking; never loosens the managed deny', async () => {
    writeFileSync(join(place.workspace, 'draft.txt'), 'a draft\n');
    approve = false;
    remember = 'always';
    expect(await read('draft.txt')).toMatch(/^PERMISSION_DENIED: /);
    expect(asked).toHaveLength(3);
    expect(await read('draft.txt')).toMatch(/^PERMISSION_DENIED: .*answered "deny always"/);
    expect(asked).toHaveLength(3);

    // the managed deny stands whatever the user answers: nobody is asked
    approve = true;
    expect(await read('secret/key.txt')).toMatch(/^PERMISSION_DENIED: .*secrets stay put/);
    expect(asked).toHaveLength(3);
  });

  it('the ledger records the answer with its scope', async () => {
    const ledger = readFileSync(join(place.dir, 'always.ledger.jsonl'), 'utf8');
    expect(ledger).toContain('"scope":"always"');
    expect(ledger).toContain('remembered in');
  });
});
