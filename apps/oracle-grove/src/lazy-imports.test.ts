import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../test/fixtures.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist', 'cli.js');
const hooks = join(here, '..', 'test', 'loaded-modules.mjs');

/** Runs the built demo and lists the modules its process loaded. */
async function loadedBy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const list = join(await scratchDir(), 'loaded.txt');
  await run(process.execPath, ['--import', hooks, cli, ...args], {
    env: { PATH: process.env.PATH, TOOLGATE_LOADED_MODULES: list, ...env },
    timeout: 120_000,
  });
  return readFileSync(list, 'utf8').split('\n').filter(Boolean);
}

/** A workspace package by its folder or its installed name. */
const ours = (name: string) => new RegExp(`(packages[/\\\\]|@toolgate[/\\\\+])${name}[/\\\\]`);
const heavy = [/[/\\]ajv[/\\]/, /@modelcontextprotocol[/\\+]sdk/, /[/\\]pg[/\\]/, ours('mcp-client')];
const named = (modules: string[], pattern: RegExp) => modules.filter((module) => pattern.test(module));

describe('the demo loads its heavy dependencies only when it uses them', () => {
  beforeAll(() => {
    if (!existsSync(cli))
      throw new Error('the built demo is missing: run `pnpm build` (pnpm test builds first)');
  });

  it('an in-process run and a replay load neither ajv, the MCP client and SDK, nor pg; an MCP run does load the SDK', async () => {
    const dir = await scratchDir();
    const ledger = join(dir, 'live.jsonl');
    const live = await loadedBy(['--turns', '2', '--ledger', ledger]);
    const replayed = await loadedBy(['--replay', ledger, '--ledger', join(dir, 'replayed.jsonl')]);
    const overMcp = await loadedBy(['--turns', '1', '--ledger', join(dir, 'mcp.jsonl')], { MCP_ORACLE: '1' });
    // the lists are real: the demo's own modules and the ledger are in each
    for (const modules of [live, replayed, overMcp]) expect(named(modules, ours('ledger'))).not.toEqual([]);
    for (const pattern of heavy) {
      expect(named(live, pattern)).toEqual([]);
      expect(named(replayed, pattern)).toEqual([]);
    }
    expect(named(overMcp, /@modelcontextprotocol[/\\+]sdk/)).not.toEqual([]);
    // a replay runs no tool: the built-in tools are not even loaded
    expect(named(replayed, ours('builtins'))).toEqual([]);
  }, 300_000);
});
