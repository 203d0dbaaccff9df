import { defineConfig } from 'vitest/config';

/** Runs every package's tests from the root in one process: `pnpm vitest run`. `pnpm test` runs them per package through turbo. */
export default defineConfig({
  test: { projects: ['packages/*', 'apps/*'] },
});
