import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGatewayArgs } from './cli-options.js';
import { cliPath } from './testing-fixtures/gateway.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('toolgate-gateway --version', () => {
  it('is a command of its own, needing no config', () => {
    expect(parseGatewayArgs(['--version'])).toEqual({ command: 'version' });
  });

  it('prints the package version from the built command', () => {
    expect(execFileSync(process.execPath, [cliPath, '--version']).toString()).toBe(
      `toolgate-gateway ${version}\n`,
    );
  });
});
