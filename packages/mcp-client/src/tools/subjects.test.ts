import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../server-config.js';
import { subjectsFor } from './subjects.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-subjects-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const server = (withRoot: boolean): McpServerConfig => ({
  name: 'runner',
  command: process.execPath,
  subjects: { run: { commands: ['line'] } },
  ...(withRoot ? { root } : {}),
});

describe('a commands mapping', () => {
  it('judges the commands a line runs through wrappers, and the files it redirects to as paths', async () => {
    const subject = await subjectsFor(server(true))!('run', { line: 'timeout 5 rm f > log/../out.txt' });
    expect(subject).toEqual({
      commands: [
        ['timeout', '5', 'rm', 'f'],
        ['rm', 'f'],
      ],
      paths: ['out.txt'],
    });
  });

  it('has an unknown subject for a line that redirects when the server has no root', async () => {
    expect(await subjectsFor(server(false))!('run', { line: 'echo x > out.txt' })).toBeUndefined();
    expect(await subjectsFor(server(false))!('run', { line: 'echo x' })).toEqual({
      commands: [['echo', 'x']],
    });
  });

  it('refuses a line dash and bash would read differently', async () => {
    await expect(subjectsFor(server(true))!('run', { line: "npm $'test\\0'" })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });
});
