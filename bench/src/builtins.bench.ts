/**
 * The built-in tools against what a user would otherwise run: `search_files` against `rg` and
 * `grep -rn` over the workspace's own node_modules (ripgrep-backed and the JavaScript fallback),
 * and `glob` against tinyglobby called directly.
 */
import { spawn, spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globTool, searchFilesTool } from '@toolgate/builtins';
import { LocalEnvironment } from '@toolgate/environment';
import { glob } from 'tinyglobby';
import { compareLatency } from './compare.js';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modules = realpathSync(join(workspace, 'node_modules'));
const store = realpathSync(join(modules, '.pnpm'));
const pattern = 'class \\w+Error';
const caps = { maxMatches: 200, maxLineChars: 500 };

/** Runs a command to completion, reading all of its output, as a caller of the CLI would. */
function run(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    child.once('error', reject);
    child.once('close', () => resolve(bytes));
  });
}

const rg = () => run('rg', ['--no-config', '-n', '--hidden', '--no-ignore', '-e', pattern, '.'], modules);
const grep = () => run('grep', ['-rnE', pattern, '.'], modules);
const searchWith = (search: 'ripgrep' | 'javascript') => {
  // pnpm hard-links node_modules files into its store; search leaves hard-linked files out unless told.
  const environment = new LocalEnvironment({ root: modules, search, allowHardLinkedReads: true });
  const tool = searchFilesTool(environment, caps);
  return async () => {
    const output = (await tool.run({ pattern })) as { totalMatches: number };
    if (output.totalMatches === 0)
      throw new Error('search_files found nothing; the comparison would be meaningless');
  };
};

// Both search comparisons are anchored on rg: without it there is nothing to compare against.
const ripgrepMissing = spawnSync('rg', ['--version']).error;
if (ripgrepMissing) {
  console.log(
    'skipped the search_files comparisons: ripgrep (rg) is not on the PATH (apt-get install ripgrep)',
  );
} else {
  await compareLatency({
    id: 'builtins-search-ripgrep',
    title: 'search_files (ripgrep) vs rg',
    what: `search_files for /${pattern}/ over the workspace's node_modules (hidden files included, ignore files off), ripgrep on PATH, against rg and grep -rn spawned on the same tree and pattern.`,
    anchor: { name: 'rg -n --hidden --no-ignore (spawned)', fn: rg },
    subject: { name: 'search_files (LocalEnvironment, ripgrep)', fn: searchWith('ripgrep') },
    others: [{ name: 'grep -rnE (spawned)', fn: grep }],
    maxRatio: 1.3,
  });

  await compareLatency({
    id: 'builtins-search-javascript',
    title: 'search_files (JavaScript fallback) vs rg',
    what: `search_files for /${pattern}/ over the workspace's node_modules with ripgrep switched off, against rg spawned on the same tree and pattern (grep is in the comparison above).`,
    anchor: { name: 'rg -n --hidden --no-ignore (spawned)', fn: rg },
    subject: { name: 'search_files (LocalEnvironment, JavaScript)', fn: searchWith('javascript') },
    maxRatio: 4,
  });
}

const globPattern = '**/*.d.ts';
const globbing = globTool(new LocalEnvironment({ root: store }), { maxEntries: 1000 });
await compareLatency({
  id: 'builtins-glob',
  title: 'glob vs tinyglobby',
  what: `glob "${globPattern}" over node_modules/.pnpm through the tool (pattern check, sort, cap) against tinyglobby called directly with the same options.`,
  anchor: {
    name: 'tinyglobby (direct)',
    fn: () =>
      glob(globPattern, {
        cwd: store,
        dot: false,
        followSymbolicLinks: false,
        expandDirectories: false,
        onlyFiles: true,
      }),
  },
  subject: { name: 'glob tool (LocalEnvironment)', fn: () => globbing.run({ pattern: globPattern }) },
  maxRatio: 1.2,
});
