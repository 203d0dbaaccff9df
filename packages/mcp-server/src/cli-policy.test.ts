import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { cliPath, run } from './testing-fixtures/cli.js';

/** A workspace with a note and a secret, and a directory for policy files; removed after the test. */
function workspace(): { root: string; policies: string } {
  const base = mkdtempSync(join(tmpdir(), 'toolgate-mcp-policy-'));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'root');
  mkdirSync(join(root, 'secret'), { recursive: true });
  writeFileSync(join(root, 'note.txt'), 'a note\n');
  writeFileSync(join(root, 'secret', 'key.txt'), 'the key\n');
  const policies = join(base, 'policies');
  mkdirSync(policies);
  return { root, policies };
}

const managed = `# the organisation's layer
rules:
  - tools: [read_file]
    paths: ['secret/**']
    decision: deny
    reason: secrets stay in the vault
`;
const project = `default: allow
rules:
  - tools: [read_file]
    decision: allow
  - tools: [list_dir]
    decision: ask
`;

describe('toolgate-mcp --policy', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  const connect = async (args: string[]) => {
    const client = new Client({ name: 'policy-test', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [cliPath(), ...args], stderr: 'ignore' }),
    );
    clients.push(client);
    return client;
  };
  const message = (result: Awaited<ReturnType<Client['callTool']>>) =>
    (result.structuredContent as { message?: string } | undefined)?.message ?? '';

  it('layers several --policy files in order: a project allow under a managed deny stays denied', async () => {
    const { root, policies } = workspace();
    writeFileSync(join(policies, 'managed.yaml'), managed);
    writeFileSync(join(policies, 'project.yaml'), project);
    const client = await connect([
      '--tools',
      'read_file,list_dir',
      '--root',
      root,
      '--policy',
      join(policies, 'managed.yaml'),
      '--policy',
      join(policies, 'project.yaml'),
    ]);
    const note = await client.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
    expect(note.isError).toBeFalsy();
    expect(JSON.stringify(note.structuredContent)).toContain('a note');

    const secret = await client.callTool({ name: 'read_file', arguments: { path: 'secret/key.txt' } });
    expect(secret).toMatchObject({ isError: true, structuredContent: { code: 'PERMISSION_DENIED' } });
    expect(message(secret)).toContain('secrets stay in the vault');
    expect(JSON.stringify(secret)).not.toContain('the key');

    // nobody can be asked over toolgate-mcp: an ask is refused, saying so
    const listed = await client.callTool({ name: 'list_dir', arguments: { path: '.' } });
    expect(listed).toMatchObject({ isError: true });
    expect(message(listed)).toMatch(/approver|ask/i);
  });

  it('takes a directory of layers in file-name order, and NAME=PATH names a layer', async () => {
    const { root, policies } = workspace();
    const directory = join(policies, 'policy.d');
    mkdirSync(directory);
    writeFileSync(
      join(directory, '20-team.yaml'),
      managed.replace('secrets stay in the vault', 'the team says no'),
    );
    writeFileSync(join(directory, '10-org.yaml'), managed);
    writeFileSync(join(directory, 'README.txt'), 'not a policy: ignored\n');
    const user = join(policies, 'mine.yaml');
    writeFileSync(user, project);
    const client = await connect([
      '--tools',
      'read_file',
      '--root',
      root,
      '--policy',
      directory,
      '--policy',
      `user=${user}`,
    ]);
    const secret = await client.callTool({ name: 'read_file', arguments: { path: 'secret/key.txt' } });
    expect(secret).toMatchObject({ isError: true, structuredContent: { code: 'PERMISSION_DENIED' } });
    expect(message(secret)).toContain('secrets stay in the vault');
    const note = await client.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
    expect(note.isError).toBeFalsy();
  });

  it('gives a tie to the layer named first, so the order of --policy is the order of authority', async () => {
    const { root, policies } = workspace();
    const deny = (who: string) =>
      `default: allow\nrules:\n  - tools: [read_file]\n    paths: ['secret/**']\n    decision: deny\n    reason: ${who} says no\n`;
    writeFileSync(join(policies, 'org.yaml'), deny('the org'));
    writeFileSync(join(policies, 'team.yaml'), deny('the team'));
    const reasonWith = async (order: string[]) => {
      const client = await connect([
        '--tools',
        'read_file',
        '--root',
        root,
        ...order.flatMap((name) => ['--policy', join(policies, `${name}.yaml`)]),
      ]);
      return message(await client.callTool({ name: 'read_file', arguments: { path: 'secret/key.txt' } }));
    };
    expect(await reasonWith(['org', 'team'])).toContain('the org says no');
    expect(await reasonWith(['team', 'org'])).toContain('the team says no');
  });

  it('without --policy, every exposed tool is allowed (as before)', async () => {
    const { root } = workspace();
    const client = await connect(['--tools', 'read_file', '--root', root]);
    const secret = await client.callTool({ name: 'read_file', arguments: { path: 'secret/key.txt' } });
    expect(secret.isError).toBeFalsy();
  });

  it('exits 2 naming --policy and the file when a layer cannot be read or is not a policy', async () => {
    const { root, policies } = workspace();
    const missing = await run(process.execPath, [cliPath(), '--policy', join(policies, 'absent.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `toolgate-mcp: --policy: cannot read the policy file ${join(policies, 'absent.yaml')}`,
    );

    const bad = join(policies, 'bad.yaml');
    writeFileSync(bad, 'rules:\n  - tools: [read_file]\n    decison: allow\n');
    const invalid = await run(process.execPath, [
      cliPath(),
      '--tools',
      'read_file',
      '--root',
      root,
      '--policy',
      bad,
    ]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/--policy: .*bad\.yaml is not a valid policy: .*decison/);
    expect(invalid.stderr).toContain('line 2');
  });
});
