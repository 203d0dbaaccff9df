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
      /--port must be a whole number from 0 to 65535/,
    );
    expect(() => parseCliOptions(['--max-body-bytes', '0'], {})).toThrow(/--max-body-bytes/);
    expect(() => parseCliOptions(['--tools', ' , '], {})).toThrow(/--tools names no tool/);
    expect(() => parseCliOptions(['--nope'], {})).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION' }),
    );
  });

  it('needs no token on loopback, and refuses a non-loopback --http without one unless --no-auth', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) {
      expect(parseCliOptions(['--http', '--host', host], {})).toMatchObject({ host, token: undefined });
    }
    expect(() => parseCliOptions(['--http', '--host', '10.0.0.1'], {})).toThrow(
      /--host 10\.0\.0\.1 is not loopback.*--token-env TOOLGATE_TOKEN.*--no-auth/,
    );
    expect(parseCliOptions(['--http', '--host', '10.0.0.1', '--no-auth'], {})).toMatchObject({
      noAuth: true,
      token: undefined,
    });
    // stdio never listens, so a --host there changes nothing and needs no token.
    expect(parseCliOptions(['--host', '10.0.0.1'], {})).toMatchObject({ transport: 'stdio' });
  });
});
