import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changingServer,
  cliPath,
  eventually,
  type HttpGateway,
  type StdioGateway,
  scratch,
  startHttpGateway,
  startStdioGateway,
  textOf,
  tokens,
} from './testing-fixtures/gateway.js';

const upstream = `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }`;

const httpConfig = (narrowTokenEnv: string) => `${upstream}
clients:
  broad: { token_env: DESKTOP_TOKEN, tools: ["mine__*"] }
  narrow: { token_env: ${narrowTokenEnv}, tools: ["mine__pid"] }
ledger: ./checks.ledger.jsonl
`;

const refusals = (text: string) => text.split('reload refused, the old config is kept').length - 1;

describe('toolgate-gateway --http on SIGHUP: the start checks again', { timeout: 120_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  let gateway: HttpGateway;
  beforeAll(async () => {
    writeFileSync(config, httpConfig('AGENT_TOKEN'));
    gateway = await startHttpGateway(config, { SHORT_TOKEN: 'abc' });
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    place.remove();
  });
  const namesFor = async (token: string) => {
    const client = await gateway.connect(token);
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  };

  it.each([
    [
      'two clients sharing one token',
      'DESKTOP_TOKEN',
      /gateway\.yaml: clients\.narrow\.token_env: clients "broad" and "narrow" have the same token \(both read DESKTOP_TOKEN\)/,
    ],
    [
      'a 3-character token',
      'SHORT_TOKEN',
      /gateway\.yaml: clients\.narrow\.token_env: the environment variable SHORT_TOKEN \(its token_env\) is shorter than 16 characters/,
    ],
    [
      'an unset variable',
      'TOOLGATE_TEST_NEVER_SET',
      /gateway\.yaml: clients\.narrow\.token_env: the environment variable TOOLGATE_TEST_NEVER_SET \(its token_env\) is not set/,
    ],
  ])(
    'refuses a reload with %s, says why naming the key, and keeps the old grants',
    async (_, tokenEnv, why) => {
      const before = refusals(gateway.stderr());
      writeFileSync(config, httpConfig(tokenEnv));
      process.kill(gateway.child.pid!, 'SIGHUP');
      await eventually(async () => refusals(gateway.stderr()) > before);
      const line = gateway
        .stderr()
        .split('\n')
        .filter((text) => text.includes('reload refused'))
        .at(-1);
      expect(line).toMatch(/^toolgate-gateway: reload refused, the old config is kept: /);
      expect(line).toMatch(why);
      // the old config stays in force: each token still means its own client
      expect(await namesFor(tokens.agent)).toEqual(['mine__pid']);
      expect(await namesFor(tokens.desktop)).toContain('mine__note');
    },
  );

  it('still takes a reload that passes every check', async () => {
    writeFileSync(config, httpConfig('AGENT_TOKEN').replace('tools: ["mine__pid"]', 'tools: ["mine__note"]'));
    process.kill(gateway.child.pid!, 'SIGHUP');
    await eventually(async () => (await namesFor(tokens.agent)).join() === 'mine__note');
  });
});

const stdioConfig = (extra: string) => `${upstream}
clients:
  desktop: { tools: ["mine__*"] }
  other: { tools: ["mine__pid"] }
${extra}
ledger: ./stdio-checks.ledger.jsonl
`;

describe('toolgate-gateway on stdio: reload checks and approve --pid', { timeout: 120_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  let gateway: StdioGateway;
  beforeAll(async () => {
    writeFileSync(config, stdioConfig('stdio: desktop'));
    gateway = await startStdioGateway(config);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });

  it.each([
    ['names no stdio client', '', /gateway\.yaml: stdio: name the client a stdio connection is/],
    [
      'names another stdio client',
      'stdio: other',
      /gateway\.yaml: stdio: the stdio connection is client "desktop", not "other"; restart/,
    ],
  ])('refuses a reload that %s, and keeps serving the old one', async (_, extra, why) => {
    const before = refusals(gateway.stderr());
    writeFileSync(config, stdioConfig(extra));
    process.kill(gateway.transport.pid!, 'SIGHUP');
    await eventually(async () => refusals(gateway.stderr()) > before);
    expect(gateway.stderr()).toMatch(why);
    const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('mine__note');
  });

  const approve = (pid: string) =>
    spawnSync(process.execPath, [cliPath, 'approve', 'mine__note', '--config', config, `--pid=${pid}`], {
      encoding: 'utf8',
    });

  it('approve --pid refuses 0, a negative pid, a process that is not a gateway and one that has exited, changing nothing', async () => {
    writeFileSync(config, stdioConfig('stdio: desktop'));
    const text = readFileSync(config, 'utf8');
    // a real process that is not a gateway: the upstream server behind the gateway
    const upstreamPid = textOf(await gateway.client.callTool({ name: 'mine__pid', arguments: {} })).slice(4);
    const exited = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => exited.once('exit', resolve));
    const cases: Array<[string, RegExp]> = [
      ['0', /--pid must be the process id of a running toolgate-gateway, a whole number from 1, not "0"/],
      ['-1', /--pid must be a whole number, not "-1"/],
      [
        upstreamPid,
        new RegExp(`--pid ${upstreamPid} is not a running toolgate-gateway: it runs ".*changing\\.mjs"`),
      ],
      [
        String(exited.pid),
        new RegExp(`--pid ${exited.pid} is not a running toolgate-gateway: no such process`),
      ],
    ];
    for (const [pid, why] of cases) {
      const outcome = approve(pid);
      expect(outcome.status, outcome.stderr).toBe(2);
      expect(outcome.stderr).toMatch(why);
      expect(readFileSync(config, 'utf8')).toBe(text);
    }
    // the upstream was not signalled: it still answers
    expect(textOf(await gateway.client.callTool({ name: 'mine__pid', arguments: {} }))).toBe(
      `pid ${upstreamPid}`,
    );
  });

  it('approve --pid accepts the running gateway', () => {
    // nothing changed upstream, so there is nothing to approve: the pid passed its check first
    const outcome = approve(String(gateway.transport.pid));
    expect(outcome.stderr).toMatch(/records no change of a tool named "mine__note"/);
    expect(outcome.stderr).not.toMatch(/not a running toolgate-gateway/);
  });
});
