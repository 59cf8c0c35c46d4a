/**
 * Bundle size of the core as an app bundles it: esbuild (the bundler tsup ships), minified, with
 * tree-shaking, platform neutral, ESM, resolving `@tenure/core` the way a consumer does (the
 * published `dist/`, so run after `npm run build`). A scorer-only import beside the whole core
 * (`import * as core`), the baseline measured in the same run.
 *
 * Bar (issue #9): `import { scoreSubscriber } from '@tenure/core'` ≤ 30 KB minified (454 KB before:
 * the core was one bundled file whose top-level zod schemas a bundler cannot drop).
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

/** The bar of the scorer-only import, in bytes of minified output. */
export const SCORER_BUNDLE_BAR = 30 * 1024;

export interface BundleSize {
  name: string;
  minified: number;
  gzipped: number;
  /** The largest inputs in the output, by bytes. */
  largest: { path: string; bytes: number }[];
}

export interface BundleBenchResult {
  scorer: BundleSize;
  whole: BundleSize;
  ok: boolean;
}

const resolveDir = fileURLToPath(new URL('.', import.meta.url));

/** Given an entry module's text, returns the size of its minified, tree-shaken bundle. */
async function bundle(name: string, contents: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'js' },
    bundle: true,
    minify: true,
    treeShaking: true,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const output = result.outputFiles[0]?.contents ?? new Uint8Array();
  const inputs = Object.values(result.metafile.outputs)[0]?.inputs ?? ({} as Metafile['outputs'][string]['inputs']);
  const largest = Object.entries(inputs)
    .map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3);
  return { name, minified: output.length, gzipped: gzipSync(output).length, largest };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Bundles the two imports and prints both sizes, their ratio and the bar.
 *
 * @example
 * const { ok } = await runBundleBench(); // `npm run bench -- bundle`
 */
export async function runBundleBench(): Promise<BundleBenchResult> {
  const scorer = await bundle(
    "import { scoreSubscriber } from '@tenure/core'",
    "import { scoreSubscriber } from '@tenure/core'; export const run = scoreSubscriber;",
  );
  const whole = await bundle("import * as core from '@tenure/core'", "import * as core from '@tenure/core'; export const run = core;");
  const ok = scorer.minified <= SCORER_BUNDLE_BAR;
  console.log('\n## bundle: @tenure/core as an app bundles it (esbuild, minified, tree-shaken, platform neutral)\n');
  console.log('| import | minified | gzipped | × whole core | largest inputs |');
  console.log('|---|---|---|---|---|');
  for (const row of [whole, scorer]) {
    const ratio = row === whole ? 'baseline' : `${(row.minified / whole.minified).toFixed(4)}`;
    const inputs = row.largest.map((i) => `${i.path.replace(/^.*node_modules\//, '')} ${kb(i.bytes)}`).join(', ');
    console.log(`| \`${row.name}\` | ${kb(row.minified)} | ${kb(row.gzipped)} | ${ratio} | ${inputs} |`);
  }
  console.log(`\nbar: scorer-only ≤ ${kb(SCORER_BUNDLE_BAR)} minified: ${ok ? 'met' : 'MISSED'} (${kb(scorer.minified)}); whole core ${(whole.minified / scorer.minified).toFixed(0)}× larger`);
  return { scorer, whole, ok };
}
