import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApprovalRequest, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { LocalEnvironment, MemoryEnvironment } from '@toolgate/environment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from './builtin-tools.js';
import { builtinAgent, codeOf } from './testing-fixtures/agent.js';

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-policy-')));
  mkdirSync(join(base, 'ws'));
  mkdirSync(join(base, 'etc'));
  writeFileSync(join(base, 'ws', 'notes.md'), 'notes\n');
  writeFileSync(join(base, 'etc', 'passwd'), 'root:x:0:0\n');
  symlinkSync('../etc', join(base, 'ws', 'etc-link'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('policy sees canonical paths (through a real ToolGate)', () => {
  const policy = new RulePolicy({
    default: 'deny',
    rules: [
      {
        tools: ['read_file', 'write_file', 'list_dir', 'glob', 'search_files'],
        paths: ['ws/**'],
        decision: 'allow',
      },
    ],
  });
  const agent = () => builtinAgent(new LocalEnvironment({ root: base }), policy);

  it('allows a path under ws/', async () => {
    expect(codeOf(await agent().callTool('read_file', { path: 'ws/notes.md' }))).toBe('ok');
  });

  it.each([
    ['ws/../etc/passwd'],
    ['ws/etc-link/passwd'],
    ['./ws/../etc/passwd'],
    [`${'ws/x/..'}/../etc/passwd`],
  ])('does not let %s match ws/**, although the file is inside the root', async (path) => {
    const result = await agent().callTool('read_file', { path });
    expect(codeOf(result)).toBe('PERMISSION_DENIED');
  });

  it('judges writes and listings by their resolved path too', async () => {
    expect(codeOf(await agent().callTool('write_file', { path: 'ws/../etc/passwd', content: 'x' }))).toBe(
      'PERMISSION_DENIED',
    );
    expect(codeOf(await agent().callTool('list_dir', { path: 'ws/etc-link' }))).toBe('PERMISSION_DENIED');
    expect(codeOf(await agent().callTool('glob', { pattern: 'ws/../etc/*' }))).toBe('PERMISSION_DENIED');
    expect(codeOf(await agent().callTool('glob', { pattern: '**/passwd' }))).toBe('PERMISSION_DENIED');
    expect(codeOf(await agent().callTool('glob', { pattern: 'ws/**/*.md' }))).toBe('ok');
  });
});

describe('policy sees every command of a shell line as argv', () => {
  const run = async (rule: string, command: string) => {
    const ran: string[] = [];
    const environment = new MemoryEnvironment({
      commands: (line) => {
        ran.push(line);
        return 'ok';
      },
    });
    const policy = new RulePolicy({
      default: 'deny',
      rules: [{ tools: ['shell'], commands: [rule], decision: 'allow' }],
    });
    const result = await builtinAgent(environment, policy).callTool('shell', { command });
    return { code: codeOf(result), ran };
  };

  it('allows exactly the command the rule names', async () => {
    expect(await run('npm test', 'npm test')).toEqual({ code: 'ok', ran: ['npm test'] });
    expect(await run('npm test', '  npm   test ')).toEqual({ code: 'ok', ran: ['  npm   test '] });
  });

  it.each([
    ['npm test && rm -rf ~'],
    ['npm test-evil'],
    ['FOO=1 npm test'],
    ['npm test; rm -rf ~'],
    ['npm test | sh'],
    ['npm test $(rm -rf ~)'],
    ['npm test `rm -rf ~`'],
    ['npm test > /etc/passwd'],
    ['npm test\nrm -rf ~'],
    ['npm test --watch'],
  ])('a rule allowing `npm test` does not allow %j, and nothing runs', async (command) => {
    expect(await run('npm test', command)).toEqual({ code: 'PERMISSION_DENIED', ran: [] });
  });

  it.each([
    ['npm test && rm -rf ~'],
    ['npm test $(id)'],
    ['npm test > out'],
    ['npm test *.js'],
    ['npm test $HOME'],
  ])('even `npm test *` does not allow %j', async (command) => {
    expect((await run('npm test *', command)).code).toBe('PERMISSION_DENIED');
  });

  it('`npm test *` allows further plain arguments', async () => {
    expect((await run('npm test *', 'npm test --watch')).code).toBe('ok');
  });
});

describe('an ask rule judges every command of a line before any approver is asked', () => {
  const world = () => {
    const ran: string[] = [];
    const asked: ApprovalRequest[] = [];
    const environment = new MemoryEnvironment({
      commands: (line) => {
        ran.push(line);
        return 'ok';
      },
    });
    const registry = new ToolRegistry();
    for (const tool of builtinTools(environment)) registry.register(tool);
    const gate = new ToolGate(registry, {
      policy: new RulePolicy({
        default: 'deny',
        rules: [{ tools: ['shell'], commands: ['npm test', 'npm run lint'], decision: 'ask' }],
      }),
      approver: (request) => {
        asked.push(request);
        return true;
      },
    });
    return { agent: gate.forAgent({ name: 'tester', tools: ['shell'] }), ran, asked };
  };

  it.each([
    ['npm test; touch X'],
    ['npm test && touch X'],
    ['npm test || touch X'],
    ['npm test | touch X'],
    ['npm test & touch X'],
    ['touch X; npm test'],
    ['npm test > X'],
    ['npm test $(touch X)'],
    ['npm test\ntouch X'],
    ['npm test &'],
  ])('denies %j without asking, and nothing runs', async (command) => {
    const { agent, ran, asked } = world();
    const result = await agent.callTool('shell', { command });
    expect(codeOf(result)).toBe('PERMISSION_DENIED');
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('asks once for a line whose every command is asked about, showing each parsed command', async () => {
    const { agent, ran, asked } = world();
    const result = await agent.callTool('shell', { command: 'npm test && npm run lint' });
    expect(codeOf(result)).toBe('ok');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.subject).toEqual({
      commands: [
        ['npm', 'test'],
        ['npm', 'run', 'lint'],
      ],
    });
    expect(ran).toEqual(['npm test && npm run lint']);
  });

  it('names the command that was refused', async () => {
    const result = await world().agent.callTool('shell', { command: 'npm test; touch X' });
    expect(result.isError && result.error.message).toContain('command "touch X": no rule matched');
  });
});

describe('policy sees the parsed, lower-cased host', () => {
  const environment = new MemoryEnvironment({ fetch: () => 'ok' });
  const policy = new RulePolicy({
    default: 'deny',
    rules: [
      { tools: ['fetch'], hosts: ['example.com', '*.example.com'], decision: 'allow' },
      { tools: ['fetch'], hosts: ['169.254.169.254'], decision: 'deny' },
    ],
  });
  const agent = builtinAgent(environment, policy);

  it.each([['https://EXAMPLE.com/x'], ['https://example.com./x'], ['https://api.Example.com/']])(
    'allows %s',
    async (url) => {
      expect(codeOf(await agent.callTool('fetch', { url }))).toBe('ok');
    },
  );

  it.each([
    ['https://example.com.evil.net/'],
    ['https://evil.net/?example.com'],
    ['https://example.com@evil.net/'],
  ])('denies %s', async (url) => {
    expect(codeOf(await agent.callTool('fetch', { url }))).toBe('PERMISSION_DENIED');
  });

  it('matches a deny rule on an IP whatever its spelling (2852039166 is 169.254.169.254)', async () => {
    const open = new RulePolicy({
      default: 'allow',
      rules: [{ tools: ['fetch'], hosts: ['169.254.169.254'], decision: 'deny' }],
    });
    const result = await builtinAgent(environment, open).callTool('fetch', {
      url: 'http://2852039166/latest',
    });
    expect(codeOf(result)).toBe('PERMISSION_DENIED');
  });
});

describe('a tool that touches nothing', () => {
  it('is not caught by a rule on paths, while a tool whose subject is known to touch the path is', async () => {
    const policy = new RulePolicy({ default: 'allow', rules: [{ paths: ['.secret'], decision: 'deny' }] });
    const agent = builtinAgent(new MemoryEnvironment({ files: { '.secret': 'x' } }), policy);
    expect(codeOf(await agent.callTool('oracle', { seed: 'moss' }))).toBe('ok');
    expect(codeOf(await agent.callTool('read_file', { path: './.secret' }))).toBe('PERMISSION_DENIED');
  });
});
