// The root vitest config. Vitest 4 ignores a file with this name unless it is passed with
// `--config vitest.workspace.ts` (see package.json's test script), so every project is listed here.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Pins fast-check's seed when FC_SEED is set (every project), so a CI failure can be replayed.
const setupFile = fileURLToPath(new URL('./packages/core/test/fastCheckSeed.setup.ts', import.meta.url));

// Tests run against each package's TypeScript source (the "@tenure/source" export condition),
// so no build is needed before testing.
const conditions = ['@tenure/source', 'node'];

// `isolate: false` for the projects whose tests touch no shared module state (checked: no module
// mocks, fake timers or environment writes): their files share one module graph per worker instead
// of importing it again per file, which was most of their time (core 90 s -> 13 s, billing-sim
// 146 s -> 66 s on the 2-core VM under load; the tests' own time unchanged).
const project = (name: string, root = `packages/${name}`, include = ['src/**/*.test.ts', 'test/**/*.test.ts'], isolate = true) => ({
  extends: false as const,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name,
    root,
    include,
    setupFiles: [setupFile],
    // Integration tests start real servers, processes and databases; on a loaded 2-core machine
    // (CI shares it) one can take longer than vitest's 5 s default without being wrong.
    testTimeout: 30_000,
    isolate,
  },
});

export default defineConfig({
  test: {
    projects: [
      project('core', 'packages/core', undefined, false),
      project('http-edge'),
      project('store-sqlite'),
      project('store-postgres'),
      project('server', 'packages/server', undefined, false),
      project('billing-sim', 'packages/billing-sim', undefined, false),
      project('quickstart', 'examples/quickstart'),
      project('frameworks', 'examples/frameworks'),
      // The published packages packed, linted and installed into a project outside the monorepo.
      project('consumer', 'test/consumer', ['*.test.ts']),
    ],
  },
});
