import { describe, expect, it } from 'vitest';
import { parseServerCommands } from './server-commands.js';

describe('parseServerCommands', () => {
  it('splits on :: and parses each command with shell quoting', () => {
    expect(parseServerCommands("node a.js :: node b.js --flag 'x y'")).toEqual([
      { name: 'node a.js', command: 'node', args: ['a.js'] },
      { name: 'node b.js', command: 'node', args: ['b.js', '--flag', 'x y'] },
    ]);
  });

  it('names servers without their later arguments, which may hold secrets, and numbers repeats', () => {
    const servers = parseServerCommands(
      '/usr/bin/node /srv/a.js --token s3cret :: node /srv/a.js :: uvx --from x',
    );
    expect(servers.map((server) => server.name)).toEqual(['node a.js', 'node a.js (#2)', 'uvx']);
    expect(servers.map((server) => server.name).join(' ')).not.toContain('s3cret');
  });

  it('keeps a quoted :: inside an argument', () => {
    expect(parseServerCommands('node a.js --sep "a::b"')[0]!.args).toEqual(['a.js', '--sep', 'a::b']);
  });

  it('expands $NAME from the given environment', () => {
    expect(parseServerCommands('node $DIR/a.js', { DIR: '/srv' })[0]!.args).toEqual(['/srv/a.js']);
  });

  it('refuses shell operators, naming the entry', () => {
    expect(() => parseServerCommands('node a.js :: node b.js | tee log')).toThrow(
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        message: expect.stringContaining('entry 2 has the shell operator "|"'),
      }),
    );
    expect(() => parseServerCommands('node a.js && rm -rf /')).toThrow(/shell operator "&&"/);
    expect(() => parseServerCommands('node a.js > out')).toThrow(/shell operator ">"/);
  });

  it('refuses an empty entry', () => {
    expect(() => parseServerCommands('node a.js :: :: node b.js')).toThrow(/entry 2 is empty/);
  });
});
