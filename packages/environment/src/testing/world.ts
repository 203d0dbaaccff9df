import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory holding a workspace `ws/`, a sibling `ws_evil/` and an `outside/` directory. */
export interface TempWorld {
  base: string;
  root: string;
  outside: string;
  sibling: string;
  cleanup(): void;
}

/**
 * Builds the world the security tests attack: `ws/` with ordinary files and every kind of hostile
 * symlink, next to `ws_evil/secret.txt` (the sibling-prefix bypass) and `outside/secret.txt`.
 */
export function makeWorld(): TempWorld {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-env-')));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  const sibling = join(base, 'ws_evil');
  for (const directory of [root, outside, sibling, join(root, 'src'), join(root, 'docs')]) {
    mkdirSync(directory, { recursive: true });
  }
  writeFileSync(join(outside, 'secret.txt'), 'outside secret\n');
  writeFileSync(join(sibling, 'secret.txt'), 'sibling secret\n');
  writeFileSync(join(root, 'README.md'), '# moss\nline two\nline three\n');
  writeFileSync(join(root, 'src', 'a.ts'), 'export const moss = 1;\nexport function lantern() {}\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'import { moss } from "./a";\n// moss again\n');
  writeFileSync(join(root, 'docs', 'notes.md'), 'the moss grows\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-file-out'));
  symlinkSync(outside, join(root, 'link-dir-out'));
  symlinkSync(join(outside, 'not-yet.txt'), join(root, 'dangling-out'));
  symlinkSync('src/a.ts', join(root, 'link-file-in'));
  symlinkSync('loop-b', join(root, 'loop-a'));
  symlinkSync('loop-a', join(root, 'loop-b'));
  symlinkSync('.', join(root, 'src', 'self'));
  return { base, root, outside, sibling, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
