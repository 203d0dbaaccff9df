import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

/** Every module the file imports, following relative imports, with the packages they reach. */
function closure(file: string, seen = new Set<string>(), packages = new Set<string>()) {
  if (seen.has(file)) return { seen, packages };
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)) {
    const specifier = match[1] as string;
    if (specifier.startsWith('.'))
      closure(join(dirname(file), specifier.replace(/\.js$/, '.ts')), seen, packages);
    else packages.add(specifier);
  }
  return { seen, packages };
}

describe('the standalone proof checker', () => {
  it('imports nothing but node:crypto, so an auditor can vendor its files alone', () => {
    const { seen, packages } = closure(join(here, 'record-proof.ts'));
    expect([...packages]).toEqual(['node:crypto']);
    expect([...seen].map((file) => file.slice(here.length - 'checkpoint'.length)).sort()).toEqual([
      'checkpoint/checkpoint.ts',
      'checkpoint/keys.ts',
      'checkpoint/note.ts',
      'checkpoint/record-proof.ts',
      'merkle/hash.ts',
      'merkle/verify.ts',
    ]);
  });
});
