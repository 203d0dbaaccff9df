import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkServerConfig, type McpServerConfig } from './server-config.js';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-config-'));
writeFileSync(join(dir, 'file'), 'x');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { name: 'files', command: 'node' };

describe('checkServerConfig: subjects and root', () => {
  it('accepts the toolgate preset, with or without a root, and mappings with a root', () => {
    expect(() => checkServerConfig({ ...base, subjects: 'toolgate' })).not.toThrow();
    expect(() => checkServerConfig({ ...base, subjects: 'toolgate', root: dir })).not.toThrow();
    const mapped = { read_file: { paths: ['path'] }, run: { commands: ['line'] }, get: { urls: ['url'] } };
    expect(() => checkServerConfig({ ...base, root: dir, subjects: mapped })).not.toThrow();
    expect(() =>
      checkServerConfig({ ...base, subjects: { run: { commands: ['line'] }, nothing: {} } }),
    ).not.toThrow();
  });

  it.each([
    [
      { subjects: { read_file: { paths: ['path'] } } },
      'subjects.read_file maps paths, so the server\'s "root" must be given',
    ],
    [{ root: join(dir, 'missing') }, 'is not an existing directory on this machine'],
    [{ root: join(dir, 'file') }, 'is not an existing directory on this machine'],
    [{ subjects: 'files' }, `"subjects" must be 'toolgate' or an object of mappings per tool`],
    [
      { subjects: { read_file: ['path'] } },
      'subjects.read_file must be an object such as { paths: ["path"] }',
    ],
    [
      { subjects: { read_file: { path: ['path'] } } },
      'subjects.read_file has an unknown field "path"; use paths, commands, urls',
    ],
    [{ subjects: { run: { commands: 'line' } } }, 'subjects.run.commands must be a list of parameter names'],
    [{ subjects: { run: { commands: [''] } } }, 'subjects.run.commands must be a list of parameter names'],
  ])('refuses %j, saying what to fix', (extra, message) => {
    const config = { ...base, ...extra } as unknown as McpServerConfig;
    expect(() => checkServerConfig(config)).toThrow(message);
    expect(() => checkServerConfig(config)).toThrow(/^MCP server "files": /);
  });
});

describe('checkServerConfig: the toolgate preset and --root', () => {
  it('refuses a root that is not the --root the toolgate-mcp child is started with', () => {
    const other = mkdtempSync(join(tmpdir(), 'toolgate-other-'));
    try {
      const config = { ...base, args: ['cli.js', '--root', other], subjects: 'toolgate' as const, root: dir };
      expect(() => checkServerConfig(config)).toThrow(/is not the directory the server is started with/);
      expect(() => checkServerConfig({ ...config, args: [`--root=${other}`] })).toThrow(/--root/);
      expect(() => checkServerConfig({ ...config, args: ['cli.js', '--root', dir] })).not.toThrow();
      expect(() => checkServerConfig({ ...config, args: ['cli.js', '--root', `${dir}/.`] })).not.toThrow();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
