// The built package works for every kind of consumer: ESM import, CommonJS require, and TypeScript
// (NodeNext resolution, both module kinds). Runs against dist/, which `npm install` builds (prepare).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
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

  // A plain Node process, as a consumer runs it: vitest's own resolution would pick the source condition.
  const runNode = (args: string[]) =>
    execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } }).trim();

  it('loads with require() through the exports map', () => {
    const out = runNode([
      '-e',
      "const c = require('@tenure/core'); console.log(require.resolve('@tenure/core'), typeof c.scoreSubscriber, c.parseWebhook({ event: { type: 'TEST' } }).ok)",
    ]);
    expect(out).toBe(`${dist}index.cjs function true`);
  });

  it('loads with import through the exports map, with the same exports as the source', async () => {
    const out = runNode([
      '--input-type=module',
      '-e',
      "const c = await import('@tenure/core'); console.log(import.meta.resolve('@tenure/core') + ' ' + JSON.stringify(Object.keys(c).sort()))",
    ]);
    const expected = Object.keys(await import('../src/index.js')).sort();
    expect(out).toBe(`file://${dist}index.js ${JSON.stringify(expected)}`);
  });

  it('loads the testing entry (@tenure/core/testing) with import and require', () => {
    const esm = runNode(['--input-type=module', '-e', "const t = await import('@tenure/core/testing'); console.log(typeof t.subscriberArb.generate)"]);
    const cjs = runNode(['-e', "console.log(typeof require('@tenure/core/testing').subscriberArb.generate)"]);
    expect([esm, cjs]).toEqual(['function', 'function']);
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

  it('type-checks for TypeScript consumers in CommonJS and ESM (NodeNext)', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const run = () => execFileSync(process.execPath, [tsc, '-p', `${root}test/consumer/tsconfig.json`], { encoding: 'utf8' });
    expect(run).not.toThrow();
  }, 60_000);
});
