/**
 * The build of a service that bundles the HTTP edge (`@tenure/server`, `@tenure/billing-sim`): one
 * copy, imported by each service's tsup.config.ts.
 */
import { defineConfig, type Options } from 'tsup';

// @tenure/http-edge is internal (a devDependency): bundled into the build, never installed by users.
const shared = {
  sourcemap: true,
  target: 'node20',
  noExternal: ['@tenure/http-edge'],
} satisfies Options;

// Two builds: the library in ESM + CJS with declarations, and the CLI in ESM only (the committed
// bin/ file imports dist/cli.js; a CommonJS copy of the CLI would be dead weight in the tarball).
// The library build cleans dist/ but spares the CLI build's files, which it writes concurrently.
export default defineConfig([
  {
    ...shared,
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: { resolve: ['@tenure/http-edge'], compilerOptions: { customConditions: [] } },
    clean: ['!cli.js', '!cli.js.map'],
  },
  {
    ...shared,
    entry: ['src/cli.ts'],
    format: ['esm'],
    clean: false,
  },
]);
