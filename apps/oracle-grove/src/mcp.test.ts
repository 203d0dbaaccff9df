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
    await runDemo({ env: {}, ledger: join(dir, 'local.jsonl'), turns: 2 });
    const remote = await runDemo({
      env: { MCP_SERVERS: `'${process.execPath}' '${script}' --tools oracle`, MCP_ORACLE: '0' },
      ledger: join(dir, 'mcp.jsonl'),
      turns: 2,
    });
    expect(remote.transport).toBe('mcp');
    // The same run but for one fact: a server named by MCP_SERVERS has no subject mapping, so the
    // gate could not tell what its oracle touches (`subject: null`, and rules on paths would fail
    // closed), where the in-process oracle says it touches nothing (`{}`). The ledgers record that.
    const events = async (name: string) =>
      (await readFile(join(dir, name), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { kind: string; payload: Record<string, unknown> });
    const [mcp, inProcess] = [await events('mcp.jsonl'), await events('local.jsonl')];
    const subjects = (run: typeof mcp) =>
      run.filter((event) => event.kind === 'policy.decided').map((event) => event.payload.subject);
    expect(subjects(mcp).length).toBeGreaterThan(0);
    expect(subjects(mcp)).toEqual(subjects(mcp).map(() => null));
    expect(subjects(inProcess)).toEqual(subjects(mcp).map(() => ({})));
    const withoutSubject = (run: typeof mcp) =>
      run.map(({ hash: _hash, prev: _prev, ...event }: Record<string, unknown>) => {
        const { subject: _subject, ...payload } = event.payload as Record<string, unknown>;
        return { ...event, payload };
      });
    expect(withoutSubject(mcp)).toEqual(withoutSubject(inProcess));
  });
});
