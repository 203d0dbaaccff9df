import { availableParallelism } from 'node:os';
import { defineProject } from 'vitest/config';

// Vitest hands these to Node as --conditions too; 'import' is left out because Node would then load
// the ESM build of a dual package from a CommonJS require (pg requires pg-pool), and Node adds
// 'import' or 'require' by itself.
const conditions = ['@toolgate/source', 'node', 'module', 'default'];

/** The conditions without `module`, for a project whose dependencies' `module` builds Node cannot load. */
export const conditionsWithoutModule = ['@toolgate/source', 'node', 'default'];

/**
 * Test files run in parallel, even on 2 cores: most of the suite's time is spent waiting on child
 * processes, servers and deadlines, not computing. Vitest's default (one fewer than the cores) runs a
 * 2-core machine's files one at a time. Packages still run one after another (turbo concurrency 1),
 * so this is the whole suite's parallelism. `TOOLGATE_TEST_WORKERS` overrides it.
 */
const testWorkers = Number(process.env.TOOLGATE_TEST_WORKERS) || Math.max(3, availableParallelism());

/**
 * The one vitest project shape every package uses: sibling packages resolve to their `src/` through
 * the `@toolgate/source` export condition, so a test sees the code beside it, not a stale build.
 *
 * The timeouts only guard against a hang: tests wait for outcomes, and on a loaded 2-core machine
 * spawning a child process alone can take seconds, so the default bound is a generous minute.
 */
export function toolgateProject(
  name: string,
  testTimeout = 60_000,
  resolveConditions: readonly string[] = conditions,
) {
  const using = [...resolveConditions];
  return defineProject({
    resolve: { conditions: using },
    ssr: { resolve: { conditions: using } },
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout,
      hookTimeout: testTimeout,
      maxWorkers: testWorkers,
    },
  });
}
