import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../test/fixtures.js';
import { runDemo } from './demo.js';
import { toolgateMcpPath } from './from-env.js';

describe('oracle-grove over MCP', () => {
  it('writes a ledger byte-identical to the in-process run when MCP_ORACLE=1', async () => {
    const dir = await scratchDir();
    const local = await runDemo({
      env: {},
      ledger: join(dir, 'local.jsonl'),
      seed: 'bracken',
      turns: 3,
      trespass: true,
    });
    const remote = await runDemo({
      env: { MCP_ORACLE: '1' },
      ledger: join(dir, 'mcp.jsonl'),
      seed: 'bracken',
      turns: 3,
      trespass: true,
    });
    expect(local.transport).toBe('in-process');
    expect(remote.transport).toBe('mcp');
    const [a, b] = await Promise.all([readFile(join(dir, 'local.jsonl')), readFile(join(dir, 'mcp.jsonl'))]);
    expect(b.toString()).toBe(a.toString());
    expect(remote.summary).toEqual(local.summary);
  });

  it('takes the server from MCP_SERVERS, parsed with shell quoting', async () => {
    const dir = await scratchDir();
    const script = toolgateMcpPath();
    const local = await runDemo({ env: {}, ledger: join(dir, 'local.jsonl'), turns: 2 });
    const remote = await runDemo({
      env: { MCP_SERVERS: `'${process.execPath}' '${script}' --tools oracle`, MCP_ORACLE: '0' },
      ledger: join(dir, 'mcp.jsonl'),
      turns: 2,
    });
    expect(remote.transport).toBe('mcp');
    expect((await readFile(join(dir, 'mcp.jsonl'))).equals(await readFile(join(dir, 'local.jsonl')))).toBe(
      true,
    );
    expect(local.head).toEqual(remote.head);
  });
});
