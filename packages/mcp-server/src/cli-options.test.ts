import { describe, expect, it } from 'vitest';
import { parseCliOptions } from './cli-options.js';

describe('parseCliOptions', () => {
  it('defaults to the oracle over stdio on loopback', () => {
    expect(parseCliOptions([], {})).toMatchObject({
      transport: 'stdio',
      tools: ['oracle'],
      host: '127.0.0.1',
      port: 0,
      token: undefined,
      maxBodyBytes: 1024 * 1024,
    });
  });

  it('reads the token from the named variable, and lists without blanks or repeats', () => {
    const options = parseCliOptions(
      ['--http', '--token-env', 'T', '--tools', 'oracle, read_file,,oracle', '--allowed-hosts', 'a:1,b:2'],
      { T: 'secret' },
    );
    expect(options).toMatchObject({
      transport: 'http',
      token: 'secret',
      tools: ['oracle', 'read_file'],
      allowedHosts: ['a:1', 'b:2'],
    });
  });

  it('refuses bad numbers and unknown flags with INVALID_DEFINITION', () => {
    expect(() => parseCliOptions(['--port', '70000'], {})).toThrow(
      /--port must be an integer from 0 to 65535/,
    );
    expect(() => parseCliOptions(['--max-body-bytes', '0'], {})).toThrow(/--max-body-bytes/);
    expect(() => parseCliOptions(['--tools', ' , '], {})).toThrow(/--tools names no tool/);
    expect(() => parseCliOptions(['--nope'], {})).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION' }),
    );
  });
});
