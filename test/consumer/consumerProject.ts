// Packs the published packages as `npm publish` would, and installs the tarballs into a temporary
// project outside the monorepo, so Node and TypeScript resolve them as a user's project does.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The packages users install, by directory under packages/. */
export const PUBLISHED = ['core', 'server', 'billing-sim', 'store-sqlite', 'store-postgres'] as const;
export type Published = (typeof PUBLISHED)[number];

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

// npm sets npm_* variables for the scripts it runs (workspace, prefix, config): a nested npm must not
// inherit them, or it would act on the monorepo instead of the temporary project.
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));

/** Runs a command to completion; never throws on a non-zero exit. */
export function run(file: string, args: readonly string[], cwd: string, timeoutMs = 120_000): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr: error !== null && stderr === '' ? String(error) : stderr });
    });
  });
}

/** One packed package: its tarball and the files in it. */
export interface Packed {
  dir: Published;
  name: string;
  version: string;
  tarball: string;
  files: string[];
}

/**
 * Packs every published package into `dest` with `npm pack --ignore-scripts`: the tarballs hold the
 * dist/ already built (`npm install` runs the root `prepare`, which builds), so packing does not
 * rebuild five packages inside the test; `prepack` still builds when a package is packed for real.
 */
export async function packAll(dest: string): Promise<Packed[]> {
  const args = ['pack', '--ignore-scripts', '--json', '--pack-destination', dest, ...PUBLISHED.flatMap((p) => ['-w', `packages/${p}`])];
  const result = await run('npm', args, ROOT);
  if (result.code !== 0) throw new Error(`npm pack failed:\n${result.stderr}`);
  const json = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as { name: string; version: string; filename: string; files: { path: string }[] }[];
  return PUBLISHED.map((dir, i) => {
    const entry = json[i]!;
    return { dir, name: entry.name, version: entry.version, tarball: join(dest, entry.filename), files: entry.files.map((f) => f.path).sort() };
  });
}

/**
 * Creates a temporary project that depends on the tarballs and installs them (from the npm cache when
 * it can). Install scripts are skipped: better-sqlite3 would compile its native addon for a minute;
 * the project pins the monorepo's better-sqlite3 version and gets its compiled addon copied instead.
 */
export async function installConsumer(packed: readonly Packed[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tenure-consumer-'));
  const versionOf = (pkg: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const sqliteVersion = versionOf('better-sqlite3');
  const manifest = {
    name: 'tenure-consumer',
    version: '0.0.0',
    private: true,
    // fast-check: the optional peer of @tenure/core/testing, as a user who property-tests a config installs it.
    dependencies: { ...Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`])), 'fast-check': versionOf('fast-check') },
    overrides: { 'better-sqlite3': sqliteVersion },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const result = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], dir, 180_000);
  if (result.code !== 0) throw new Error(`npm install of the tarballs failed:\n${result.stderr}`);
  const addon = 'node_modules/better-sqlite3/build/Release';
  mkdirSync(join(dir, addon), { recursive: true });
  copyFileSync(join(ROOT, addon, 'better_sqlite3.node'), join(dir, addon, 'better_sqlite3.node'));
  return dir;
}

/** The first `ts` code block under a heading of a doc in docs/, as a user would paste it. */
export function docSnippet(doc: string, heading: string): string {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`docs/${doc} has no heading "${heading}"`);
  const block = /```ts\n([\s\S]*?)\n```/.exec(text.slice(at));
  if (block === null) throw new Error(`docs/${doc}: no ts block under "${heading}"`);
  return `${block[1]!}\n`;
}

/** The in-process wiring snippet of docs/billing-sim.md. */
export const SIM_SNIPPET = { doc: 'billing-sim.md', heading: '## Wiring a receiver in-process (local sink)' } as const;

/**
 * Copies the fixture files into the consumer project (consumer.ts also as .mts and .cts), and the
 * documentation snippet as snippet.mts (type-checked with the node16 consumer).
 */
export function copyFixtures(project: string): void {
  const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), 'utf8');
  for (const name of ['esm.mjs', 'cjs.cjs', 'tsconfig.node16.json', 'tsconfig.bundler.json', 'consumer.ts']) writeFileSync(join(project, name), fixture(name));
  for (const ext of ['mts', 'cts']) writeFileSync(join(project, `consumer.${ext}`), fixture('consumer.ts'));
  writeFileSync(join(project, 'snippet.mts'), docSnippet(SIM_SNIPPET.doc, SIM_SNIPPET.heading));
}
