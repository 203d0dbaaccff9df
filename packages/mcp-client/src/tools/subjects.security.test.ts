import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileTool, shellTool } from '@toolgate/builtins';
import {
  type ApprovalRequest,
  type PolicyDocument,
  RulePolicy,
  ToolGate,
  ToolRegistry,
  type ToolResult,
} from '@toolgate/core';
import { LocalEnvironment } from '@toolgate/environment';
import { type HttpChild, startHttpCli } from '@toolgate/mcp-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MCPResolver } from '../resolver.js';
import type { McpServerConfig } from '../server-config.js';
import { connectClosingAfterEach, fixture, toolgateMcp } from '../testing-fixtures/servers.js';

let base: string;
let ws: string;
let log: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-subjects-')));
  ws = join(base, 'ws');
  mkdirSync(join(ws, 'pub'), { recursive: true });
  writeFileSync(join(ws, '.secret'), 'TOP SECRET\n');
  writeFileSync(join(ws, 'pub', 'a.txt'), 'public\n');
  symlinkSync('../.secret', join(ws, 'pub', 'link'));
  log = join(base, 'calls.jsonl');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const denySecret: PolicyDocument = {
  default: 'allow',
  rules: [{ tools: ['read_file', 'fs__read_file'], paths: ['.secret'], decision: 'deny' }],
};
const allowPub: PolicyDocument = {
  default: 'deny',
  rules: [
    { tools: ['read_file', 'list_dir', 'glob', 'read_many'], paths: ['pub/**', 'pub'], decision: 'allow' },
  ],
};
const tools = ['read_file', 'list_dir', 'glob', 'read_many', 'fs__read_file', 'shell', 'fetch'];

function agentOver(
  resolver: MCPResolver,
  document: PolicyDocument,
  approver?: (request: ApprovalRequest) => boolean,
) {
  const gate = new ToolGate(new ToolRegistry().setResolver(resolver), {
    policy: new RulePolicy(document),
    ...(approver ? { approver } : {}),
  });
  return gate.forAgent({ name: 'agent', tools });
}

const codeOf = (result: ToolResult) => (result.isError ? result.error.code : 'ok');
const traversals = ['.secret', './.secret', 'pub/../.secret', 'pub/link'];

/** The calls that reached the third-party server. */
function reached(): unknown[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe("toolgate-mcp's own tools over MCP get the subjects they have in-process", () => {
  const connect = connectClosingAfterEach();
  const server = (subjects: boolean): McpServerConfig => ({
    ...toolgateMcp('read_file,list_dir,glob,shell,fetch', ['--root', ws]),
    ...(subjects ? { subjects: 'toolgate' as const, root: ws } : {}),
  });

  it.each(traversals)('a deny rule on .secret refuses read_file %j', async (path) => {
    const agent = agentOver(await connect([server(true)]), denySecret);
    expect(codeOf(await agent.callTool('read_file', { path }))).toBe('PERMISSION_DENIED');
  });

  it('lets the same deny rule pass other paths', async () => {
    const agent = agentOver(await connect([server(true)]), denySecret);
    const result = await agent.callTool('read_file', { path: 'pub/a.txt' });
    expect(result.isError === false && result.output).toMatchObject({ content: 'public' });
  });

  it('allows pub/** over MCP exactly as in-process, and nothing else', async () => {
    const agent = agentOver(await connect([server(true)]), allowPub);
    expect(codeOf(await agent.callTool('read_file', { path: 'pub/a.txt' }))).toBe('ok');
    expect(codeOf(await agent.callTool('list_dir', { path: 'pub' }))).toBe('ok');
    expect(codeOf(await agent.callTool('glob', { pattern: 'pub/*.txt' }))).toBe('ok');
    for (const path of traversals)
      expect(codeOf(await agent.callTool('read_file', { path }))).toBe('PERMISSION_DENIED');
    expect(codeOf(await agent.callTool('list_dir', {}))).toBe('PERMISSION_DENIED');
    expect(codeOf(await agent.callTool('glob', { pattern: '**/*' }))).toBe('PERMISSION_DENIED');
  });

  it('computes the very subject the in-process tool computes', async () => {
    const resolver = await connect([server(true)]);
    const local = readFileTool(new LocalEnvironment({ root: ws }));
    for (const path of [...traversals, 'pub/a.txt', '../outside', '/etc/passwd']) {
      expect(await resolver.subject('read_file', { path })).toEqual(await local.policySubject!({ path }));
    }
    const shell = shellTool(new LocalEnvironment({ root: ws }), {
      maxFieldChars: 1000,
      shellTimeoutMs: 1000,
      maxShellTimeoutMs: 1000,
    });
    const command = 'npm test; touch X && env A=1 timeout 5 echo $HOME > pub/out &';
    expect(await resolver.subject('shell', { command })).toEqual(await shell.policySubject!({ command }));
    const refused = 'npm test; echo $(id)';
    const message = await Promise.resolve(shell.policySubject!({ command: refused })).catch(
      (error) => error.message,
    );
    expect(message).toContain('$(…)');
    await expect(resolver.subject('shell', { command: refused })).rejects.toThrow(message);
    expect(await resolver.subject('fetch', { url: 'http://2852039166/x' })).toEqual({
      hosts: ['169.254.169.254'],
    });
  });

  it('denies a compound shell line before the approver is asked, over MCP', async () => {
    const asked: ApprovalRequest[] = [];
    const agent = agentOver(
      await connect([server(true)]),
      { default: 'deny', rules: [{ tools: ['shell'], commands: ['echo hi'], decision: 'ask' }] },
      (request) => {
        asked.push(request);
        return true;
      },
    );
    for (const command of [
      'echo hi; touch X',
      'echo hi && touch X',
      'echo hi | touch X',
      'echo hi & touch X',
    ]) {
      expect(codeOf(await agent.callTool('shell', { command }))).toBe('PERMISSION_DENIED');
    }
    expect(asked).toEqual([]);
    expect(existsSync(join(ws, 'X'))).toBe(false);
    const approved = await agent.callTool('shell', { command: 'echo hi' });
    expect(approved.isError === false && approved.output).toMatchObject({ stdout: 'hi\n' });
    expect(asked.map((request) => request.subject)).toEqual([{ commands: [['echo', 'hi']] }]);
  });

  it('matches a fetch deny rule on the parsed host, over MCP', async () => {
    const agent = agentOver(await connect([server(true)]), {
      default: 'allow',
      rules: [{ tools: ['fetch'], hosts: ['169.254.169.254'], decision: 'deny' }],
    });
    expect(codeOf(await agent.callTool('fetch', { url: 'http://2852039166/latest' }))).toBe(
      'PERMISSION_DENIED',
    );
  });

  it('fails closed without a subjects config: the deny rule matches every call, the allow rule none', async () => {
    const resolver = await connect([server(false)]);
    expect(await resolver.subject('read_file', { path: 'pub/a.txt' })).toBeUndefined();
    const denying = agentOver(resolver, denySecret);
    for (const path of [...traversals, 'pub/a.txt']) {
      const result = await denying.callTool('read_file', { path });
      expect(codeOf(result)).toBe('PERMISSION_DENIED');
      expect(result.isError && result.error.message).toContain('toolgate cannot tell');
    }
    const allowing = agentOver(resolver, allowPub);
    expect(codeOf(await allowing.callTool('read_file', { path: 'pub/a.txt' }))).toBe('PERMISSION_DENIED');
  });
});

describe('toolgate-mcp over streamable HTTP, with the toolgate subjects', () => {
  const connect = connectClosingAfterEach();
  let child: HttpChild | undefined;
  afterAll(async () => {
    await child?.stop();
  });

  it('refuses every spelling of .secret and allows pub/**, as over stdio', async () => {
    child = await startHttpCli(['--tools', 'read_file', '--root', ws]);
    const resolver = await connect([{ name: 'http', url: child.url, subjects: 'toolgate', root: ws }]);
    const denying = agentOver(resolver, denySecret);
    for (const path of traversals)
      expect(codeOf(await denying.callTool('read_file', { path }))).toBe('PERMISSION_DENIED');
    const allowing = agentOver(resolver, allowPub);
    expect(codeOf(await allowing.callTool('read_file', { path: 'pub/a.txt' }))).toBe('ok');
    expect(codeOf(await allowing.callTool('read_file', { path: 'pub/link' }))).toBe('PERMISSION_DENIED');
  });
});

describe('a third-party server, with subject mappings declared in its config', () => {
  const connect = connectClosingAfterEach();
  const server = (options: Partial<McpServerConfig> = {}): McpServerConfig =>
    fixture('third-party-files.mjs', {
      args: [fixture('third-party-files.mjs').args![0]!, ws, log],
      ...options,
    } as never);
  const mapped = () => ({
    root: ws,
    subjects: { read_file: { paths: ['path'] }, read_many: { paths: ['paths'] } },
  });

  it.each([...traversals, 'ABSOLUTE'])(
    'a deny rule on .secret refuses read_file %j before the server sees it',
    async (path) => {
      rmSync(log, { force: true });
      const agent = agentOver(await connect([server(mapped())]), denySecret);
      const target = path === 'ABSOLUTE' ? join(ws, '.secret') : path;
      expect(codeOf(await agent.callTool('read_file', { path: target }))).toBe('PERMISSION_DENIED');
      expect(reached()).toEqual([]);
    },
  );

  it('lets allowed paths through, and judges every path of an array parameter', async () => {
    rmSync(log, { force: true });
    const agent = agentOver(await connect([server(mapped())]), allowPub);
    const result = await agent.callTool('read_file', { path: 'pub/a.txt' });
    expect(result.isError === false && result.output).toEqual({ content: 'public\n' });
    expect(codeOf(await agent.callTool('read_many', { paths: ['pub/a.txt', 'pub/../.secret'] }))).toBe(
      'PERMISSION_DENIED',
    );
    expect(codeOf(await agent.callTool('read_many', { paths: ['pub/a.txt'] }))).toBe('ok');
    expect(reached()).toEqual([
      { tool: 'read_file', parameters: { path: 'pub/a.txt' } },
      { tool: 'read_many', parameters: { paths: ['pub/a.txt'] } },
    ]);
  });

  it('keys mappings by the server’s own tool names, whatever the prefix', async () => {
    const agent = agentOver(await connect([server({ ...mapped(), prefix: 'fs' })]), denySecret);
    expect(codeOf(await agent.callTool('fs__read_file', { path: 'pub/../.secret' }))).toBe(
      'PERMISSION_DENIED',
    );
    expect(codeOf(await agent.callTool('fs__read_file', { path: 'pub/a.txt' }))).toBe('ok');
  });

  it('fails closed for a tool without a mapping, and for a mapping whose parameter is missing', async () => {
    rmSync(log, { force: true });
    const unmapped = agentOver(await connect([server()]), denySecret);
    expect(codeOf(await unmapped.callTool('read_file', { path: '.secret' }))).toBe('PERMISSION_DENIED');
    expect(codeOf(await unmapped.callTool('read_file', { path: 'pub/a.txt' }))).toBe('PERMISSION_DENIED');
    const allowing = agentOver(await connect([server({ name: 'again' })]), allowPub);
    expect(codeOf(await allowing.callTool('read_file', { path: 'pub/a.txt' }))).toBe('PERMISSION_DENIED');
    const wrongName = agentOver(
      await connect([server({ name: 'wrong', root: ws, subjects: { read_file: { paths: ['file'] } } })]),
      denySecret,
    );
    expect(codeOf(await wrongName.callTool('read_file', { path: 'pub/a.txt' }))).toBe('PERMISSION_DENIED');
    expect(reached()).toEqual([]);
  });
});
