import { defineProject } from 'vitest/config';

// The shared project shape (vitest.shared.ts) but for one condition: @opentelemetry/* ship an ESM
// build under `module` whose imports have no file extension, which Node cannot load, so this project
// resolves them without it (their CommonJS build, as Node itself does for an app).
const conditions = ['@toolgate/source', 'node', 'default'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: 'otel',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
