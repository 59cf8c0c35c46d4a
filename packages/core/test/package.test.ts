// The built package works for every kind of consumer: ESM import, CommonJS require, and TypeScript
// (NodeNext resolution, both module kinds). Runs against dist/, which `npm install` builds (prepare).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
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

  it('type-checks for TypeScript consumers in CommonJS and ESM (NodeNext)', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const run = () => execFileSync(process.execPath, [tsc, '-p', `${root}test/consumer/tsconfig.json`], { encoding: 'utf8' });
    expect(run).not.toThrow();
  }, 60_000);
});
