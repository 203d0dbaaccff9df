import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { cliPath, run } from './testing-fixtures/cli.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('the version toolgate-mcp reports', () => {
  it('--version prints the package version and exits 0', async () => {
    const result = await run(process.execPath, [cliPath(), '--version']);
    expect(result).toMatchObject({ code: 0, stdout: `toolgate-mcp ${version}\n` });
  });

  it('the MCP handshake reports the package version, not a constant', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cliPath()] }));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'toolgate-mcp', version });
    } finally {
      await client.close();
    }
  });
});
