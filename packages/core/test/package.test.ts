// The built core as a bundler sees it: a scorer-only import stays small. Runs against dist/, which
// `npm install` builds (prepare). ESM, CommonJS, TypeScript and the testing entry are checked on the
// packed tarball by the consumer test (test/consumer, see docs/packaging.md).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist/`;
const built = existsSync(`${dist}index.js`) && existsSync(`${dist}index.cjs`) && existsSync(`${dist}index.d.ts`);

describe('@tenure/core package', () => {
  it('is built (npm install runs the build; otherwise run `npm run build`)', () => {
    expect(built).toBe(true);
  });

  it('bundles a scorer-only import to at most 30 KB minified (zod is not reached)', async () => {
    const result = await build({
      stdin: { contents: "export { scoreSubscriber } from '@tenure/core';", resolveDir: root, loader: 'js' },
      bundle: true,
      minify: true,
      treeShaking: true,
      platform: 'neutral',
      format: 'esm',
      mainFields: ['module', 'main'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const output = Object.values(result.metafile.outputs)[0]!;
    const inBundle = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path);
    expect(inBundle.filter((path) => path.includes('node_modules/zod'))).toEqual([]);
    expect(result.outputFiles[0]!.contents.length).toBeLessThanOrEqual(30 * 1024);
  });
});
