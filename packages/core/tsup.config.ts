import { defineConfig } from 'tsup';

const sources = ['src/**/*.ts', '!src/**/*.test.ts'];

export default defineConfig([
  // ESM: one file per module (not bundled), so with `"sideEffects": false` a consumer's bundler drops
  // every module its imports do not reach: `import { scoreSubscriber }` does not pull in zod (see
  // packages/bench/src/bundleSize.ts).
  {
    entry: sources,
    bundle: false,
    format: ['esm'],
    dts: { entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' }, compilerOptions: { customConditions: [] } },
    sourcemap: true,
    // The two configs build in parallel: each cleans only its own files.
    clean: ['**/*.js', '**/*.js.map', '**/*.d.ts'],
    target: 'node20',
  },
  // CommonJS: one bundle per entry (require() does not tree-shake).
  {
    entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
    format: ['cjs'],
    dts: { entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' }, compilerOptions: { customConditions: [] } },
    sourcemap: true,
    clean: ['**/*.cjs', '**/*.cjs.map', '**/*.d.cts'],
    target: 'node20',
    external: ['fast-check'],
  },
]);
