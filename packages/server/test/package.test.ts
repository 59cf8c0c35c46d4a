// The built package works for every kind of consumer: ESM import, CommonJS require (the issue's
// `import { createRetentionApp } from '@tenure/server'` compiled to CJS), TypeScript, and the bin.
// Runs against dist/, which `npm install` builds (prepare).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist/`;
const built = ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts', 'cli.js'].every((f) => existsSync(`${dist}${f}`));

// A plain Node process, as a consumer runs it: vitest's own resolution would pick the source condition.
const runNode = (args: string[]) =>
  execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } }).trim();

describe('@tenure/server package', () => {
  it('is built (npm install runs the build; otherwise run `npm run build`)', () => {
    expect(built).toBe(true);
  });

  it('loads with require() and serves /health', () => {
    const out = runNode([
      '-e',
      `const { createRetentionApp, closeRetentionApp, createLogger } = require('@tenure/server');
       const app = createRetentionApp({ logger: createLogger({ level: 'silent' }) });
       const server = require('node:http').createServer(app).listen(0, '127.0.0.1', async () => {
         const res = await fetch('http://127.0.0.1:' + server.address().port + '/health');
         console.log(require.resolve('@tenure/server'), res.status);
         server.close(); await closeRetentionApp(app);
       });`,
    ]);
    expect(out).toBe(`${dist}index.cjs 200`);
  });

  it('loads with import, with the same exports as the source', async () => {
    const out = runNode(['--input-type=module', '-e', "const s = await import('@tenure/server'); console.log(JSON.stringify(Object.keys(s).sort()))"]);
    expect(out).toBe(JSON.stringify(Object.keys(await import('../src/index.js')).sort()));
  });

  it('runs the bin: tenure --version and serve --help', () => {
    expect(runNode([`${dist}cli.js`, '--version'])).toMatch(/^\d+\.\d+\.\d+$/);
    expect(runNode([`${dist}cli.js`, 'serve', '--help'])).toContain('BILLING_WEBHOOK_AUTH_KEY');
  });

  it('type-checks for TypeScript consumers in CommonJS and ESM (NodeNext)', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const run = () => execFileSync(process.execPath, [tsc, '-p', `${root}test/consumer/tsconfig.json`], { encoding: 'utf8' });
    expect(run).not.toThrow();
  }, 60_000);
});
