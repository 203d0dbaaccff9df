import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RulePolicy, ToolGate, ToolRegistry, type ToolResult } from '@toolgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerConfig } from './server-config.js';
import { connectClosingAfterEach, toolgateMcp } from './testing-fixtures/servers.js';

let ws: string;
beforeAll(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-remote-withheld-')));
  mkdirSync(join(ws, 'secrets'));
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, '.env'), 'API_KEY=sk-live-dotenv\n');
  writeFileSync(join(ws, 'secrets', 'db.txt'), 'API_KEY=sk-live-db\n');
  writeFileSync(join(ws, 'src', 'app.txt'), 'API_KEY=placeholder\n');
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

// biome-ignore lint/suspicious/noExplicitAny: tests read fields of outputs whose shapes they assert
const outputOf = (result: ToolResult): any => {
  if (result.isError) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.output;
};

describe("toolgate-mcp's pattern tools over MCP withhold what policy withholds in-process", () => {
  const connect = connectClosingAfterEach();
  const server = (prefix?: string): McpServerConfig => ({
    ...toolgateMcp('search_files,glob,list_dir,read_file', ['--root', ws]),
    subjects: 'toolgate',
    root: ws,
    ...(prefix === undefined ? {} : { prefix }),
  });

  it.each([[undefined], ['fs']])(
    'with prefix %s: no line, path or entry of a denied file comes back',
    async (prefix) => {
      const name = (tool: string) => (prefix === undefined ? tool : `${prefix}__${tool}`);
      const policy = new RulePolicy({
        default: 'allow',
        rules: [{ tools: [name('read_file')], paths: ['.env', 'secrets/**'], decision: 'deny' }],
      });
      const gate = new ToolGate(new ToolRegistry().setResolver(await connect([server(prefix)])), { policy });
      const agent = gate.forAgent({
        name: 'agent',
        tools: ['search_files', 'glob', 'list_dir'].map(name),
      });
      const search = outputOf(await agent.callTool(name('search_files'), { pattern: 'API_KEY' }));
      expect(search.matches).toEqual(['src/app.txt:1: API_KEY=placeholder']);
      expect(JSON.stringify(search)).not.toContain('sk-live');
      expect(search.withheldByPolicy).toBe(2);
      const glob = outputOf(await agent.callTool(name('glob'), { pattern: '**/*.txt' }));
      expect(glob.paths).toEqual(['src/app.txt']);
      expect(glob.withheldByPolicy).toBe(1);
      const listing = outputOf(await agent.callTool(name('list_dir'), {}));
      expect(listing.entries.map((entry: { name: string }) => entry.name)).toEqual(['src']);
      expect(listing.withheldByPolicy).toBe(2);
    },
  );
});
