import { basename } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import type { StdioServerConfig } from '@toolgate/mcp-client';
import { parse } from 'shell-quote';

/**
 * Parses `MCP_SERVERS`: command lines separated by a `::` word, each split by shell quoting rules
 * (`node b.js --flag 'x y'`). `$NAME` expands from `env`. Shell operators (`|`, `&&`, `>` …) and
 * globs are refused: nothing here runs through a shell. Each server is named by the base names of
 * its command and first argument (`node a.js`) — never its other arguments, which may hold secrets
 * that errors would show a model; a repeated name gets ` (#2)`, ` (#3)` ….
 *
 * @example
 * parseServerCommands("node a.js :: node b.js --flag 'x y'");
 * // [{ name: 'node a.js', command: 'node', args: ['a.js'] }, { name: 'node b.js', command: 'node', args: ['b.js', '--flag', 'x y'] }]
 */
export function parseServerCommands(text: string, env: NodeJS.ProcessEnv = {}): StdioServerConfig[] {
  const tokens = parse(text, (key) => env[key] ?? '');
  const lines: string[][] = [[]];
  for (const token of tokens) {
    if (typeof token !== 'string') {
      const operator =
        'op' in token ? (token.op === 'glob' ? `glob ${token.pattern}` : token.op) : 'a comment';
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `MCP_SERVERS entry ${lines.length} has the shell operator "${operator}"; ` +
          'entries are plain commands with arguments (quote the argument if it is meant literally)',
      );
    }
    if (token === '::') lines.push([]);
    else lines.at(-1)!.push(token);
  }
  const seen = new Map<string, number>();
  return lines.map((words, index) => {
    if (words.length === 0) {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `MCP_SERVERS entry ${index + 1} is empty; separate commands with " :: "`,
      );
    }
    const [command, ...args] = words as [string, ...string[]];
    const source = serverName(command, args);
    const count = (seen.get(source) ?? 0) + 1;
    seen.set(source, count);
    return { name: count === 1 ? source : `${source} (#${count})`, command, args };
  });
}

function serverName(command: string, args: readonly string[]): string {
  const first = args[0];
  return first === undefined || first.startsWith('-')
    ? basename(command)
    : `${basename(command)} ${basename(first)}`;
}
