import { defineConfig, type Options } from 'tsup';

const shared = {
  sourcemap: true,
  target: 'node20',
} satisfies Options;

// Two builds: the library in ESM + CJS with declarations, and the CLI in ESM only (the committed
// bin/ file imports dist/cli.js; a CommonJS copy of the CLI would be dead weight in the tarball).
// The library build cleans dist/ but spares the CLI build's files, which it writes concurrently.
export default defineConfig([
  {
    ...shared,
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: { compilerOptions: { customConditions: [] } },
    clean: ['!cli.js', '!cli.js.map'],
  },
  {
    ...shared,
    entry: ['src/cli.ts'],
    format: ['esm'],
    clean: false,
  },
]);
