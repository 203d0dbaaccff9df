import { ToolgateError } from '@toolgate/core';

/** A tree of files: a string is a file's content, an object is a directory (possibly empty). */
export interface FileTree {
  [name: string]: string | FileTree;
}

/** Files and directories held in memory, keyed by workspace-relative POSIX path (`.` is the root). */
export class MemoryTree {
  readonly files = new Map<string, string>();
  readonly directories = new Set<string>(['.']);

  constructor(tree: FileTree = {}) {
    this.#add('', tree);
  }

  #add(prefix: string, tree: FileTree): void {
    for (const [name, value] of Object.entries(tree)) {
      for (const segment of name.split('/')) {
        if (segment === '' || segment === '.' || segment === '..' || segment.includes('\0')) {
          throw new ToolgateError(
            'INVALID_PATH',
            `the tree entry ${JSON.stringify(name)} is not a plain relative path`,
          );
        }
      }
      const path = prefix === '' ? name : `${prefix}/${name}`;
      if (typeof value === 'string') this.write(path, value);
      else {
        this.makeDirectories(path);
        this.#add(path, value);
      }
    }
  }

  /** Creates `path` and its missing parents as directories; refuses when a file is in the way. */
  makeDirectories(path: string): void {
    const segments = path === '.' ? [] : path.split('/');
    for (let index = 1; index <= segments.length; index++) {
      const directory = segments.slice(0, index).join('/');
      if (this.files.has(directory)) {
        throw new ToolgateError(
          'INVALID_PATH',
          `cannot create ${JSON.stringify(path)}: ${directory} is a file`,
        );
      }
      this.directories.add(directory);
    }
  }

  /** Writes a file, creating its parents. */
  write(path: string, content: string): void {
    if (this.directories.has(path)) {
      throw new ToolgateError('INVALID_PATH', `cannot write ${JSON.stringify(path)}: it is a directory`);
    }
    const slash = path.lastIndexOf('/');
    if (slash !== -1) this.makeDirectories(path.slice(0, slash));
    this.files.set(path, content);
  }

  /** The names and kinds of a directory's direct children, sorted by name. */
  children(path: string): { name: string; type: 'file' | 'directory' }[] {
    const prefix = path === '.' ? '' : `${path}/`;
    const found = new Map<string, 'file' | 'directory'>();
    const collect = (candidate: string, type: 'file' | 'directory') => {
      if (candidate === '.' || !candidate.startsWith(prefix)) return;
      const rest = candidate.slice(prefix.length);
      if (rest !== '' && !rest.includes('/')) found.set(rest, type);
    };
    for (const file of this.files.keys()) collect(file, 'file');
    for (const directory of this.directories) collect(directory, 'directory');
    return [...found]
      .map(([name, type]) => ({ name, type }))
      .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  }
}
