import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { cliPath, scratch } from './testing-fixtures/gateway.js';

const place = scratch();
afterAll(() => place.remove());
let count = 0;
const write = (text: string) => {
  count += 1;
  const path = join(place.dir, `config-${count}.yaml`);
  writeFileSync(path, text);
  return path;
};

const good = `servers:
  files: { command: node, args: ["server.js", "\${WORKSPACE}"], prefix: fs }
  search: { url: "https://search.example/mcp", headers: { Authorization: "Bearer \${SEARCH_TOKEN}" } }
clients:
  desktop: { token_env: DESKTOP_TOKEN, tools: ["fs__read_*", "search__*"] }
stdio: desktop
ledger: ./gateway.ledger.jsonl
`;

describe('loadConfig', () => {
  it('reads a good config: variables expanded, the ledger resolved against the file', async () => {
    const config = await loadConfig(write(good), { WORKSPACE: '/srv/ws', SEARCH_TOKEN: 's3cret' });
    expect(config.servers[0]).toMatchObject({
      name: 'files',
      command: 'node',
      args: ['server.js', '/srv/ws'],
      prefix: 'fs',
    });
    expect(config.servers[1]).toMatchObject({ name: 'search', headers: { Authorization: 'Bearer s3cret' } });
    expect(config.ledger).toBe(join(place.dir, 'gateway.ledger.jsonl'));
    expect(config.stdioClient).toBe('desktop');
    expect(config.durability).toBe('batch');
  });

  it('keeps a postgres:// ledger as a URL (never resolved as a path), its variables expanded', async () => {
    const text = good.replace(
      './gateway.ledger.jsonl',
      `"postgres://gate:\${LEDGER_PASSWORD}@db.internal:5432/audit?ledger=desk"`,
    );
    const config = await loadConfig(write(text), {
      WORKSPACE: 'w',
      SEARCH_TOKEN: 't',
      LEDGER_PASSWORD: 'pw',
    });
    expect(config.ledger).toBe('postgres://gate:pw@db.internal:5432/audit?ledger=desk');
  });

  it('never shows a bad postgres:// URL, which may hold a password', async () => {
    const path = write(good.replace('./gateway.ledger.jsonl', '"postgres://gate:hunter2@[db/audit"'));
    const error = await loadConfig(path, { WORKSPACE: 'w', SEARCH_TOKEN: 't' }).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error?.message).toContain('not a valid URL');
    expect(error?.message).not.toContain('hunter2');
  });

  it('names the missing variable and its line, never sending an empty value', async () => {
    const path = write(good);
    await expect(loadConfig(path, { WORKSPACE: '/srv/ws' })).rejects.toThrow(
      new RegExp(
        `${path}:3: servers\\.search\\.headers\\.Authorization: the environment variable SEARCH_TOKEN is not set`,
      ),
    );
  });

  it.each([
    [
      'an unknown field',
      good.replace('prefix: fs', 'prefix: fs, prefx: x'),
      2,
      /servers\.files: unknown field "prefx"/,
    ],
    [
      'a client with no tools',
      good.replace('tools: ["fs__read_*", "search__*"]', 'tools: []'),
      5,
      /clients\.desktop\.tools: grant at least one tool pattern/,
    ],
    [
      'a server with both command and url',
      good.replace('prefix: fs', 'prefix: fs, url: "http://x"'),
      2,
      /give exactly one of "command"/,
    ],
    [
      'a stdio client that does not exist',
      good.replace('stdio: desktop', 'stdio: laptop'),
      6,
      /no client is named "laptop"/,
    ],
    [
      'a postgres ledger URL that is not a URL',
      good.replace('./gateway.ledger.jsonl', '"postgres://gate:pa ss@[db/audit?ledger=desk"'),
      7,
      /ledger: the postgres:\/\/ URL is not a valid URL; give postgres:\/\/USER@HOST:PORT\/DATABASE\?ledger=NAME/,
    ],
    [
      "an inline policy rule with an empty pattern list (by core's policy schema)",
      `${good}policy:\n  rules:\n    - { tools: [], decision: deny }\n`,
      10,
      /policy\.rules\[0\]\.tools: must name at least one pattern/,
    ],
    ['a YAML syntax error', good.replace('clients:', 'clients: [oops'), 4, /not valid YAML/],
    ['a repeated key', `${good}ledger: ./other.jsonl\n`, 8, /not valid YAML/],
  ])('refuses %s, naming the line', async (_, text, line, message) => {
    const path = write(text);
    const error = await loadConfig(path, { WORKSPACE: 'w', SEARCH_TOKEN: 't' }).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error?.message).toMatch(message);
    expect(error?.message).toContain(`${path}:${line}:`);
  });
});

const runCli = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [cliPath, ...args],
      { timeout: 60_000, env },
      (error, _stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
    );
    child.stdin?.end();
  });

describe('toolgate-gateway with a bad config', () => {
  it('exits with code 2 and a one-line reason naming the file and line', async () => {
    const path = write(good.replace('tools: ["fs__read_*", "search__*"]', 'tools: "fs__*"'));
    const outcome = await runCli(['--config', path]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(new RegExp(`${path}:5: clients\\.desktop\\.tools: `));
  });
});

describe('toolgate-gateway --http with bad tokens', () => {
  const env = { ...process.env, WORKSPACE: 'w', SEARCH_TOKEN: 't' };
  it.each([
    ['an unset token variable', {}, /DESKTOP_TOKEN \(its token_env\) is not set/],
    [
      'a short token',
      { DESKTOP_TOKEN: 'short' },
      /DESKTOP_TOKEN \(its token_env\) is shorter than 16 characters/,
    ],
  ])('refuses %s before starting anything, exit 2', async (_, tokens, message) => {
    const outcome = await runCli(['--config', write(good), '--http'], { ...env, ...tokens });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(message);
  });

  it('refuses two clients sharing one token', async () => {
    const shared = good.replace(
      'stdio: desktop',
      '  ci: { token_env: CI_TOKEN, tools: ["search__*"] }\nstdio: desktop',
    );
    const token = 'the-same-token-for-both-0123';
    const outcome = await runCli(['--config', write(shared), '--http'], {
      ...env,
      DESKTOP_TOKEN: token,
      CI_TOKEN: token,
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/clients "desktop" and "ci" have the same token/);
  });
});
