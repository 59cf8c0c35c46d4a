/**
 * Test-only shim. The root vitest config lists `import` among `resolve.conditions`, and Vitest passes
 * those to Node as `--conditions`, so inside tests a CommonJS `require('is-promise')` (done by
 * Express's router) resolves to the package's ESM build and gets a namespace object instead of the
 * function ("isPromise is not a function" on every Express request). Seed Node's require cache with
 * the CommonJS build before Express loads. Remove once the root config drops `import`/`default`.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const resolved = require.resolve('is-promise');
if (resolved.endsWith('.mjs') && require.cache[resolved] === undefined) {
  const cjsPath = resolved.replace(/\.mjs$/, '.js');
  const isPromise = require(cjsPath) as unknown;
  require.cache[resolved] = { id: resolved, filename: resolved, loaded: true, exports: isPromise } as NodeJS.Module;
}
