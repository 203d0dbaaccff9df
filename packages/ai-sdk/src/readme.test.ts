import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

const example = new URL('./test-support/readme-example.ts', import.meta.url);

describe('README', () => {
  it('shows the Usage example that is type checked and run here, as written', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /## Usage[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    const file = readFileSync(example, 'utf8').split('\n').slice(1).join('\n');
    expect(block).toBe(file);
  });

  it('runs the Usage example: the model reads the omen and says so', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import('./test-support/readme-example.js');
      expect(log).toHaveBeenCalledWith('The omen is drawn.', [
        expect.objectContaining({ isError: false, output: { omen: 'the moss remembers moss' } }),
      ]);
    } finally {
      log.mockRestore();
    }
  });
});
