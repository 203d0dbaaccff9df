import { defineProject } from 'vitest/config';

const conditions = ['@toolgate/source', 'node', 'import', 'module', 'default'];

/**
 * The one vitest project shape every package uses: sibling packages resolve to their `src/` through
 * the `@toolgate/source` export condition, so a test sees the code beside it, not a stale build.
 */
export function toolgateProject(name: string, testTimeout = 20_000) {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: { name, include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout, hookTimeout: testTimeout },
  });
}
