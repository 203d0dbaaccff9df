import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

const example = new URL('./test-support/readme-use.ts', import.meta.url);

describe('README', () => {
  it('shows the Use example that is type checked and run here, as written', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /## Use\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    const file = readFileSync(example, 'utf8').split('\n').slice(1).join('\n');
    expect(block).toBe(file);
  });

  it('runs the Use example: the granted call runs, the ungranted one is refused, the model answers', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import('./test-support/readme-use.js');
      expect(log).toHaveBeenCalledWith('The moss remembers; the shell is not mine to use.');
    } finally {
      log.mockRestore();
    }
  });
});
