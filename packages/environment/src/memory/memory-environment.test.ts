import { describe, expect, it } from 'vitest';
import { MemoryEnvironment } from './memory-environment.js';

const files = { 'README.md': '# moss\nline two\n', src: { 'a.ts': 'export const moss = 1;\n', empty: {} } };

describe('MemoryEnvironment', () => {
  it('reads lines of a file with offset and limit', async () => {
    const environment = new MemoryEnvironment({ files });
    expect(await environment.readFile('README.md', { offset: 2 })).toEqual({
      path: 'README.md',
      content: 'line two',
      startLine: 2,
      endLine: 2,
      totalLines: 2,
    });
  });

  it('writes files, creating directories, and shows them in listings and snapshots', async () => {
    const environment = new MemoryEnvironment({ files });
    expect(await environment.writeFile('docs/new.md', 'hé')).toEqual({
      path: 'docs/new.md',
      bytes: 3,
      created: true,
    });
    expect((await environment.listDirectory()).entries).toEqual([
      { name: 'README.md', type: 'file' },
      { name: 'docs', type: 'directory' },
      { name: 'src', type: 'directory' },
    ]);
    expect((await environment.listDirectory('src')).entries).toEqual([
      { name: 'a.ts', type: 'file' },
      { name: 'empty', type: 'directory' },
    ]);
    expect(environment.snapshot()['docs/new.md']).toBe('hé');
  });

  it('reports missing files as NOT_FOUND and directories as INVALID_PATH', async () => {
    const environment = new MemoryEnvironment({ files });
    await expect(environment.readFile('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(environment.readFile('src')).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(environment.writeFile('src', 'x')).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(environment.writeFile('README.md/x', 'x')).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  it('globs with the same rules as the local environment', async () => {
    const environment = new MemoryEnvironment({ files: { ...files, '.hidden.ts': '' } });
    expect((await environment.glob('**/*.ts')).paths).toEqual(['src/a.ts']);
    expect((await environment.glob('.*.ts')).paths).toEqual(['.hidden.ts']);
  });

  it('answers commands and requests with the handlers it was given', async () => {
    const environment = new MemoryEnvironment({
      commands: (command) => (command === 'npm test' ? 'ok\n' : { exitCode: 1, stderr: 'no' }),
      fetch: (request) => ({ status: 201, body: `${request.method ?? 'GET'} ${request.url}` }),
    });
    expect(await environment.exec('npm test')).toMatchObject({
      exitCode: 0,
      stdout: 'ok\n',
      timedOut: false,
    });
    expect(await environment.exec('other')).toMatchObject({ exitCode: 1, stderr: 'no' });
    expect(await environment.fetch({ url: 'https://Example.com/a' })).toMatchObject({
      status: 201,
      body: 'GET https://example.com/a',
    });
  });

  it('fails commands and requests it has no handler for', async () => {
    const environment = new MemoryEnvironment();
    await expect(environment.exec('ls')).rejects.toMatchObject({ code: 'COMMAND_FAILED' });
    await expect(environment.fetch({ url: 'https://example.com/' })).rejects.toMatchObject({
      code: 'NETWORK_FAILED',
    });
  });

  it('refuses a tree entry that is not a plain relative path', () => {
    expect(() => new MemoryEnvironment({ files: { '../x': 'x' } })).toThrow(/not a plain relative path/);
  });
});
