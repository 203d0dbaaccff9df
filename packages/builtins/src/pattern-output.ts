import { type JsonObject, type JsonValue, ToolgateError } from '@toolgate/core';
import { withheldField } from './path-policy.js';

/** The pattern tools whose outputs {@link withholdFromOutput} knows. */
const patternTools = new Set(['search_files', 'glob', 'list_dir']);

/**
 * A pattern tool's output as `toolgate-mcp` returns it (`search_files`, `glob`, `list_dir`), with
 * every entry `withholds` refuses taken out and counted in `withheldByPolicy`: for a client that
 * gets these tools over MCP, so what the server read of a withheld file reaches neither the
 * model nor the ledger. A `search_files` line is withheld when any way of reading its
 * `path:line: ` prefix names a withheld path. `undefined` for another tool (nothing to do); an
 * output of another shape (cut at a cap, content parts) cannot be checked entry by entry, so it is
 * refused (PERMISSION_DENIED).
 */
export function withholdFromOutput(
  tool: string,
  output: unknown,
  withholds: (path: string) => boolean,
): JsonValue | undefined {
  if (!patternTools.has(tool)) return undefined;
  const value = output as JsonObject;
  const earlier = typeof value?.withheldByPolicy === 'number' ? value.withheldByPolicy : 0;
  if (tool === 'search_files' && isStrings(value?.matches) && typeof value.totalMatches === 'number') {
    const withheld = new Set<string>();
    const kept = value.matches.filter((line) => {
      const refused = candidatePaths(line).filter(withholds);
      for (const path of refused) withheld.add(path);
      return refused.length === 0;
    });
    const removed = value.matches.length - kept.length;
    return {
      ...value,
      matches: kept,
      totalMatches: value.totalMatches - removed,
      ...withheldField(earlier + withheld.size),
    };
  }
  if (tool === 'glob' && isStrings(value?.paths)) {
    const kept = value.paths.filter((path) => !withholds(path));
    return { ...value, paths: kept, ...withheldField(earlier + value.paths.length - kept.length) };
  }
  if (tool === 'list_dir' && typeof value?.path === 'string' && Array.isArray(value.entries)) {
    const prefix = value.path === '.' ? '' : `${value.path}/`;
    const entries = value.entries as JsonObject[];
    const kept = entries.filter(
      (entry) => typeof entry?.name === 'string' && !withholds(`${prefix}${entry.name}`),
    );
    return { ...value, entries: kept, ...withheldField(earlier + entries.length - kept.length) };
  }
  throw new ToolgateError(
    'PERMISSION_DENIED',
    `the output of tool "${tool}" is not in the shape toolgate's ${tool} returns (it may have been cut at ` +
      'a cap), so policy cannot check it path by path; it is withheld. Narrow the call (a glob, a ' +
      'subdirectory) so that its output comes back whole',
  );
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Every prefix of `line` that ends before a `:<digits>: ` separator: the paths it could name. */
function candidatePaths(line: string): string[] {
  const paths: string[] = [];
  for (const found of line.matchAll(/:\d+: /g)) paths.push(line.slice(0, found.index));
  return paths.length > 0 ? paths : [line];
}
