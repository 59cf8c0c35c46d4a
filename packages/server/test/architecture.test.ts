// The adapter's layering, checked rather than hoped for: the core through its public entry only,
// listen() only in the runner, the wall clock only behind the Clock port.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
const sources = files(src).map((path) => ({ path: relative(src, path), code: readFileSync(path, 'utf8') }));
/** Code without comments (TSDoc examples may show listen() and Date.now()). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

describe('@tenure/server architecture', () => {
  it('imports @tenure/core through its public entry only', () => {
    const deep = sources.filter((f) => /from '@tenure\/core\/|from '\.\.\/\.\.\/\.\.\/core/.test(f.code)).map((f) => f.path);
    expect(deep).toEqual([]);
  });

  it('calls listen() only in the runner (library code never listens)', () => {
    const listening = sources.filter((f) => /\.listen\(/.test(code(f.code))).map((f) => f.path);
    expect(listening).toEqual(['server/startRetentionServer.ts']);
  });

  it('reads the wall clock only behind the Clock port', () => {
    const clocks = sources.filter((f) => /Date\.now\(|new Date\(\)/.test(code(f.code))).map((f) => f.path);
    expect(clocks).toEqual(['clock/clock.ts']);
  });

  it('keeps glue files small', () => {
    const big = sources.filter((f) => f.code.split('\n').length > 250).map((f) => f.path);
    expect(big).toEqual([]);
  });
});
