import { defineProject } from 'vitest/config';

// Vitest hands these to Node as --conditions too; 'import' is left out because Node would then load
// the ESM build of a dual package from a CommonJS require (pg requires pg-pool), and Node adds
// 'import' or 'require' by itself.
const conditions = ['@toolgate/source', 'node', 'module', 'default'];

/**
 * The one vitest project shape every package uses: sibling packages resolve to their `src/` through
 * the `@toolgate/source` export condition, so a test sees the code beside it, not a stale build.
 *
 * The timeouts only guard against a hang: tests wait for outcomes, and on a loaded 2-core machine
 * spawning a child process alone can take seconds, so the default bound is a generous minute.
 */
export function toolgateProject(name: string, testTimeout = 60_000) {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: { name, include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout, hookTimeout: testTimeout },
  });
}
