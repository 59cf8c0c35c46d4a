// The root vitest config. Vitest 4 ignores a file with this name unless it is passed with
// `--config vitest.workspace.ts` (see package.json's test script), so every project is listed here.
import { defineConfig } from 'vitest/config';

// Tests run against each package's TypeScript source (the "@tenure/source" export condition),
// so no build is needed before testing.
const conditions = ['@tenure/source', 'node', 'import', 'module', 'default'];

const project = (name: string) => ({
  extends: false as const,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name,
    root: `packages/${name}`,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['../../vitest.setup.ts'],
  },
});

export default defineConfig({
  test: {
    projects: [project('core'), project('server'), project('billing-sim')],
  },
});
