import { describe, expect, it } from 'vitest';
import { joinDashValues } from './dash-values.js';

const options = {
  port: { type: 'string' },
  seed: { type: 'string' },
  http: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

describe('joinDashValues', () => {
  it('joins a value that starts with a dash to the option that takes it', () => {
    expect(joinDashValues(['--port', '-1', '--seed', '-moss', '--http'], options)).toEqual([
      '--port=-1',
      '--seed=-moss',
      '--http',
    ]);
  });

  it('leaves ordinary values, joined forms, flags and everything after -- alone', () => {
    const argv = ['--port', '80', '--seed=-x', '--http', '-', '--', '--port', '-1'];
    expect(joinDashValues(argv, options)).toEqual(argv);
  });

  it('says a value is missing when the next argument is one of the options', () => {
    expect(() => joinDashValues(['--port', '--http'], options)).toThrow(
      '--port needs a value, but the next argument is the option --http',
    );
    expect(() => joinDashValues(['--seed', '-h'], options)).toThrow(/--seed needs a value/);
  });
});
