import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  answersFor,
  cliPath,
  filesystemServer,
  type HttpGateway,
  ledgerLines,
  scratch,
  startHttpGateway,
  textOf,
  tokens,
} from '../testing-fixtures/gateway.js';

const run = promisify(execFile);

/** A 2025-11-25 client over HTTP (one session) of `gateway` whose user answers every ask with `remember`. */
async function sessionClient(gateway: HttpGateway, remember: () => string) {
  const asked: string[] = [];
  const client = new Client({ name: 'session-test', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    const schema = ('requestedSchema' in request.params ? request.params.requestedSchema : {}) as {
      properties?: Record<string, { enum?: string[] }>;
    };
    asked.push(`${request.params.message} | remember: ${schema.properties?.remember?.enum?.join('/')}`);
    return { action: 'accept', content: { approve: true, remember: remember() } };
  });
  await gateway.connect(tokens.desktop, client);
  return { client, asked };
}

describe('a "for this session" answer through toolgate-gateway', { timeout: 180_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  const user = join(place.dir, 'user.yaml');
  const ledger = join(place.dir, 'session.ledger.jsonl');
  let gateway: HttpGateway;
  beforeAll(async () => {
    writeFileSync(user, 'default: ask\nrules: []\n');
    for (const name of ['other.txt', 'draft.txt']) writeFileSync(join(place.workspace, name), `${name}\n`);
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
  desktop: { token_env: DESKTOP_TOKEN, tools: ["fs__read_text_file"] }
ledger: ./session.ledger.jsonl
durability: always
policy:
  - layer: managed
    rules:
      - { tools: ["fs__*"], paths: ["**/secret/**"], decision: deny, reason: secrets stay put }
  - { layer: user, file: ./user.yaml, remember: true }
`,
    );
    gateway = await startHttpGateway(config);
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    place.remove();
  });
  const open = async (remember: () => string) => {
    const opened = await sessionClient(gateway, remember);
    const read = async (path: string) =>
      textOf(
        await opened.client.callTool({
          name: 'fs__read_text_file',
          arguments: { path: join(place.workspace, path) },
        }),
      );
    return { ...opened, read };
  };
  const remembered = toolgate('remembered');

  it('is not asked again in the session, is asked for another subject and in another session, and is recorded with its scope each time', async () => {
    const first = await open(() => 'session');
    expect(await first.read('hello.txt')).toContain('hello from the workspace');
    expect(first.asked).toHaveLength(1);
    expect(first.asked[0]).toContain('remember: once/session/always');
    expect(await first.read('hello.txt')).toContain('hello from the workspace');
    expect(await first.read('hello.txt')).toContain('hello from the workspace');
    expect(first.asked).toHaveLength(1);

    // the same tool on another path is asked about: the answer was for hello.txt only
    expect(await first.read('other.txt')).toContain('other.txt');
    expect(first.asked).toHaveLength(2);
    expect(first.asked[1]).toContain('other.txt');
    // the managed deny stands: nobody is asked, whatever was answered for the session
    expect(await first.read('secret/key.txt')).toMatch(/^PERMISSION_DENIED: .*secrets stay put/);
    expect(first.asked).toHaveLength(2);

    const answers = answersFor(ledger, 'fs__read_text_file', 'hello.txt');
    expect(answers).toHaveLength(3);
    for (const answer of answers) expect(answer).toMatchObject({ approved: true, scope: 'session' });
    expect(answers[0]!.reason).toBe('the user approved it');
    expect(answers[1]!.reason).toBe('remembered for this session: the user approved it');
    expect(answers[2]!.reason).toBe('remembered for this session: the user approved it');
    expect(readFileSync(user, 'utf8')).toBe('default: ask\nrules: []\n'); // nothing written for always

    // another session of the same client is asked again (and a "once" answer holds once)
    const second = await open(() => 'once');
    expect(await second.read('hello.txt')).toContain('hello from the workspace');
    expect(second.asked).toHaveLength(1);
    expect(await second.read('hello.txt')).toContain('hello from the workspace');
    expect(second.asked).toHaveLength(2);
  });

  it('remembered forget --sessions --pid forgets it in the running gateway, and the ledger says so', async () => {
    const third = await open(() => 'session');
    await third.read('draft.txt');
    await third.read('draft.txt');
    expect(third.asked).toHaveLength(1);
    const { stdout } = await remembered(['forget', '--sessions', '--pid', String(gateway.child.pid)]);
    expect(stdout).toContain(`sent SIGHUP to ${gateway.child.pid}`);
    await vi.waitFor(
      () => expect(ledgerLines(ledger).some((line) => line.kind === 'approvals.forgotten')).toBe(true),
      { timeout: 60_000, interval: 100 },
    );
    const forgotten = ledgerLines(ledger).find((line) => line.kind === 'approvals.forgotten')!;
    expect(forgotten.payload).toMatchObject({
      scope: 'session',
      reason: 'the gateway was reloaded (SIGHUP)',
    });
    expect(forgotten.payload.count).toBeGreaterThanOrEqual(2); // draft.txt here, hello.txt in the first session
    expect(await third.read('draft.txt')).toContain('draft.txt');
    expect(third.asked).toHaveLength(2);
  });

  it('remembered lists an "always" answer, and forget N removes it: the next call is asked again', async () => {
    const fourth = await open(() => 'always');
    await fourth.read('other.txt');
    await fourth.read('other.txt');
    expect(fourth.asked).toHaveLength(1);
    const listed = (await remembered([])).stdout;
    expect(listed).toMatch(
      / {2}1 {2}allow fs__read_text_file; agents desktop; clients desktop; paths other\.txt/,
    );

    const reloads = () => ledgerLines(ledger).filter((line) => line.kind === 'config.reloaded').length;
    const before = reloads();
    const { stdout } = await remembered(['forget', '1', '--pid', String(gateway.child.pid)]);
    expect(stdout).toContain('forgot in');
    expect(readFileSync(user, 'utf8')).not.toContain('other.txt');
    expect((await remembered([])).stdout).toContain('no "always" answer is kept');
    await vi.waitFor(() => expect(reloads()).toBeGreaterThan(before), { timeout: 60_000, interval: 100 });
    await fourth.read('other.txt');
    expect(fourth.asked).toHaveLength(2);
  });

  it('refuses a forget that names no rule, changing nothing', async () => {
    const text = readFileSync(user, 'utf8');
    await expect(remembered(['forget', '7'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('there is no rule 7, so none was removed'),
    });
    expect(readFileSync(user, 'utf8')).toBe(text);
  });

  /** Runs `toolgate-gateway COMMAND … --config` on this test's config. */
  function toolgate(command: string) {
    return (args: string[]) => run(process.execPath, [cliPath, command, ...args, '--config', config]);
  }
});
