// The published packages as users install them: each is packed, linted (publint --strict, attw),
// installed from its tarball into a project outside the monorepo, imported from ESM and CommonJS,
// run through its bins, and type-checked by a strict TypeScript consumer (node16 and bundler).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixtures, installConsumer, packAll, PUBLISHED, ROOT, run, type Packed, type Published } from './consumerProject.js';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;
// The workspace directories, with `dir/*` patterns expanded (the only kind of pattern the root uses).
const workspaceDirs = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces.flatMap((w) =>
  w.endsWith('/*')
    ? readdirSync(join(ROOT, w.slice(0, -2)), { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(join(ROOT, w.slice(0, -2), d.name, 'package.json')))
        .map((d) => `${w.slice(0, -2)}/${d.name}`)
    : [w],
);
/** The module specifiers a built file imports or requires (JS and declarations). */
const importsOf = (text: string): string[] =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

describe('package manifests', () => {
  const published = PUBLISHED.map((dir) => ({ dir, json: manifest(`packages/${dir}`) }));
  const names = new Set(published.map((p) => p.json.name));

  it('every bin is a committed file outside dist/, so npm links it in a fresh clone before the build', () => {
    const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n'));
    for (const { dir, json } of published)
      for (const target of Object.values(json.bin ?? {})) {
        const path = join('packages', dir, target);
        expect(path, `${json.name} bin`).not.toMatch(/\/dist\//);
        expect(tracked.has(path), `${path} is committed`).toBe(true);
      }
  });

  it('every published package has version 0.1.0 and depends on the others with ^0.1.0 (npm links the workspace copy; the registry one is compatible)', () => {
    for (const { json } of published) {
      expect(json.version, json.name).toBe('0.1.0');
      expect(json.private, json.name).toBeUndefined();
      for (const [dep, range] of Object.entries(json.dependencies ?? {}).filter(([d]) => d.startsWith('@tenure/'))) {
        expect(names.has(dep), `${json.name} depends on ${dep}, which is not published`).toBe(true);
        expect(range, `${json.name} → ${dep}`).toBe('^0.1.0');
      }
    }
  });

  it('no workspace depends on a local package with "*"', () => {
    for (const dir of workspaceDirs) {
      const json = manifest(dir);
      for (const [dep, range] of Object.entries({ ...json.dependencies, ...json.devDependencies }))
        if (dep.startsWith('@tenure/')) expect(range, `${json.name} → ${dep}`).not.toBe('*');
    }
  });
});

// Each step runs processes (npm, node, tsc): seconds each on a busy 2-core machine, a minute and more for a strict tsc under load.
describe('published packages, installed from their tarballs', { timeout: 180_000 }, () => {
  let packDir = '';
  let project = '';
  let packed: Packed[] = [];
  const byDir = (dir: Published) => packed.find((p) => p.dir === dir)!;

  beforeAll(async () => {
    packDir = mkdtempSync(join(tmpdir(), 'tenure-pack-'));
    packed = await packAll(packDir);
    project = await installConsumer(packed);
    copyFixtures(project);
  }, 240_000);

  // Removing the consumer's node_modules can take longer than the 10 s hook default under load.
  afterAll(() => {
    for (const dir of [packDir, project]) if (dir !== '') rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it.each(PUBLISHED)('%s: the tarball holds the license, readme, both builds and declarations, and no tests', (dir) => {
    const { files } = byDir(dir);
    for (const f of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts']) expect(files).toContain(f);
    expect(files.filter((f) => /\.test\.ts$|(^|\/)test\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith('dist/cli.cjs'))).toEqual([]);
  });

  it('the bins and the simulator scenario files are in the tarballs', () => {
    expect(byDir('server').files).toEqual(expect.arrayContaining(['bin/tenure.js', 'dist/cli.js']));
    expect(byDir('billing-sim').files).toEqual(expect.arrayContaining(['bin/tenure-billing-sim.js', 'dist/cli.js', 'scenarios/hybrid-credits.json']));
  });

  it('no tarball refers to an internal package (they are bundled, never installed)', () => {
    const internal = new Set(workspaceDirs.map((dir) => manifest(dir)).filter((m) => m.private === true).map((m) => m.name));
    for (const p of packed) {
      const dist = join(project, 'node_modules', p.name, 'dist');
      for (const file of p.files.filter((f) => f.startsWith('dist/') && !f.endsWith('.map'))) {
        const text = readFileSync(join(dist, file.slice('dist/'.length)), 'utf8');
        for (const name of internal) expect(importsOf(text), `${p.name}/${file} imports ${name}`).not.toContain(name);
      }
    }
  });

  it.each(PUBLISHED)('%s: publint --strict finds nothing', async (dir) => {
    const result = await run(bin('publint'), ['run', byDir(dir).tarball, '--strict'], ROOT);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it.each(PUBLISHED)('%s: attw (are the types wrong) finds nothing for node10, node16 CJS and ESM, bundler', async (dir) => {
    const result = await run(bin('attw'), [byDir(dir).tarball, '--format', 'ascii'], ROOT);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('imports every package from ESM, with the same exports as its source', async () => {
    const result = await run(process.execPath, ['esm.mjs'], project);
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout) as { resolved: string; exports: Record<Published | 'core/testing', string[]>; parsed: boolean; simulator: string; postgresError: boolean };
    expect(out.resolved).toBe(`file://${project}/node_modules/@tenure/core/dist/index.js`);
    // Both OpenAPI documents name the server they describe (`servers`), at the CLIs' default addresses.
    expect(out).toMatchObject({ parsed: true, sampled: true, simulator: 'function', postgresError: true, servers: [['http://127.0.0.1:3000'], ['http://127.0.0.1:4000']] });
    const sources: (readonly [Published | 'core/testing', Record<string, unknown>])[] = [
      ...(await Promise.all(PUBLISHED.map(async (dir) => [dir, (await import(`../../packages/${dir}/src/index.ts`)) as Record<string, unknown>] as const))),
      ['core/testing', (await import('../../packages/core/src/testing/index.js')) as Record<string, unknown>],
    ];
    for (const [entry, source] of sources) expect(out.exports[entry], `${entry}: a stale dist/? run npm run build`).toEqual(Object.keys(source).sort());
  });

  it('requires every package from CommonJS and serves /health', async () => {
    const result = await run(process.execPath, ['cjs.cjs'], project);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      resolved: `${project}/node_modules/@tenure/core/dist/index.cjs`,
      health: 200,
      types: ['function', 'function', 'function', 'function', 'function'],
    });
  });

  it('runs the bins through npx: tenure and tenure-billing-sim', async () => {
    const version = await run('npx', ['--no', '--', 'tenure', '--version'], project);
    expect(version.stdout.trim(), version.stderr).toBe(byDir('server').version);
    const help = await run('npx', ['--no', '--', 'tenure', '--help'], project);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('serve');
    const serveHelp = await run('npx', ['--no', '--', 'tenure', 'serve', '--help'], project);
    expect(serveHelp.stdout, serveHelp.stderr).toContain('BILLING_WEBHOOK_AUTH_KEY');
    const simHelp = await run('npx', ['--no', '--', 'tenure-billing-sim', '--help'], project);
    expect(simHelp.code, simHelp.stderr).toBe(0);
    expect(simHelp.stdout).toContain('tenure-billing-sim');
  });

  it('replays the shipped scenario file with the simulator bin', async () => {
    const result = await run('npx', ['--no', '--', 'tenure-billing-sim', 'run', 'node_modules/@tenure/billing-sim/scenarios/hybrid-credits.json'], project);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('the in-process snippet of docs/billing-sim.md runs as pasted (type-checked below with the consumer)', async () => {
    const ts = (await import('typescript')).default;
    const js = ts.transpileModule(readFileSync(join(project, 'snippet.mts'), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    }).outputText;
    writeFileSync(join(project, 'snippet.mjs'), js);
    const result = await run(process.execPath, ['snippet.mjs'], project, 30_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('active');
  });

  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  it.each(['node16', 'bundler'])('type-checks a strict consumer (moduleResolution %s, skipLibCheck false, no ambient types)', async (resolution) => {
    const result = await run(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], project);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
});
