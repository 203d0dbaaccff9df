import { lstatSync, readFileSync } from 'node:fs';
import { isAbsolute, join, posix, resolve } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import { isInside, relativePosix } from './path-rules.js';

/**
 * The workspace paths tools never write by default: files and folders that programs on the host
 * trust and run from (git's config, hooks and `core.fsmonitor`, editor tasks, direnv, shell start-up
 * files, MCP and agent settings). The list follows Claude Code's sandbox (its dangerous files and
 * directories) and Codex (`.git`, `.codex` read-only inside writable roots), plus toolgate's own
 * `.toolgate`, direnv's `.envrc` and husky's hooks folder. `node_modules/.bin` and `package.json`
 * scripts are the same class but are left writable, since installing packages writes them: add
 * them with `protectedPaths` where nothing should install.
 */
export const defaultProtectedPaths: readonly string[] = Object.freeze([
  '.git',
  '.gitmodules',
  '.toolgate',
  '.mcp.json',
  '.vscode',
  '.idea',
  '.envrc',
  '.husky',
  '.claude',
  '.claude.json',
  '.codex',
  '.gitconfig',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
]);

/**
 * Which workspace paths stay read-only: `true` adds a path (relative to the root, POSIX
 * separators), `false` opts one of {@link defaultProtectedPaths} out. Paths not named keep the
 * default.
 *
 * @example
 * new LocalEnvironment({ root, protectedPaths: { '.vscode': false, 'deploy/keys': true } });
 */
export type ProtectedPathsOption = Readonly<Record<string, boolean>>;

/** The effective list: the defaults, plus the paths set `true`, minus those set `false`. */
export function protectedPathList(option: ProtectedPathsOption | undefined): readonly string[] {
  const list = new Set(defaultProtectedPaths);
  for (const [path, on] of Object.entries(option ?? {})) {
    const normal = normalProtectedPath(path);
    if (on === true) list.add(normal);
    else if (on === false) list.delete(normal);
    else {
      throw new ToolgateError(
        'INVALID_DEFINITION',
        `protectedPaths[${JSON.stringify(path)}] is ${JSON.stringify(on)}; use true to protect the path or false to let tools write it`,
      );
    }
  }
  return [...list].sort();
}

function normalProtectedPath(path: string): string {
  const normal = posix.normalize(path).replace(/\/+$/, '');
  if (path.includes('\0') || isAbsolute(path) || normal === '.' || normal === '' || normal.startsWith('..')) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `protectedPaths names ${JSON.stringify(path)}; name a path inside the workspace, relative to its root (".git", "deploy/keys")`,
    );
  }
  return normal;
}

/** True when the workspace-relative `path` is a protected path or lies under one. */
export function isProtected(path: string, list: readonly string[]): string | undefined {
  return list.find((entry) => path === entry || path.startsWith(`${entry}/`));
}

/**
 * The list with what a `.git` *file* (a worktree's or a submodule's) points to: its git directory
 * and that directory's common directory, where the config and hooks live, when they lie inside the
 * root (outside it they are not the workspace's to write, and not in the sandbox at all).
 */
export function withGitDirectories(root: string, list: readonly string[]): readonly string[] {
  if (!list.includes('.git')) return list;
  const gitFile = join(root, '.git');
  let text: string;
  try {
    if (!lstatSync(gitFile).isFile()) return list;
    text = readFileSync(gitFile, 'utf8');
  } catch {
    return list;
  }
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match?.[1]) return list;
  const extra: string[] = [];
  const gitDirectory = resolve(root, match[1]);
  extra.push(gitDirectory);
  try {
    extra.push(resolve(gitDirectory, readFileSync(join(gitDirectory, 'commondir'), 'utf8').trim()));
  } catch {
    // not a worktree: no common directory
  }
  const inside = extra
    .filter((path) => isInside(root, path) && path !== root)
    .map((path) => relativePosix(root, path));
  return [...new Set([...list, ...inside])].sort();
}

/** The PERMISSION_DENIED a tool gets for writing a protected path; it names the list and the opt-out. */
export function protectedPathRefused(path: string, entry: string): ToolgateError {
  return new ToolgateError(
    'PERMISSION_DENIED',
    `writing ${JSON.stringify(path)} is refused: it is under ${JSON.stringify(entry)}, one of the environment's ` +
      `protected paths (protectedPaths, default ${defaultProtectedPaths.join(', ')}), which programs on the ` +
      `host trust and run from; to let tools write it, opt it out: protectedPaths: { ${JSON.stringify(entry)}: false }`,
  );
}
