// Guards the core's purity: no I/O, no clock, no randomness, and imports only from allowed places.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));
const ALLOWED_PACKAGES = new Set(['zod']);
/** The testing entry (`@tenure/core/testing`) alone may import fast-check, its peer dependency. */
const TESTING_DIR = 'testing/';
const TESTING_PACKAGES = new Set(['fast-check']);
const TYPE_ONLY_PACKAGES = new Set<string>();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Source text without comments, so TSDoc examples that mention fetch or Date.now() do not count. */
const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"])\/\/.*$/gm, '$1');

const files = sourceFiles(srcDir).map((path) => ({
  path: relative(srcDir, path),
  text: stripComments(readFileSync(path, 'utf8')),
}));
const importPattern = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm;

describe('core architecture', () => {
  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('imports only relative paths and zod (and fast-check in the testing entry alone)', () => {
    const offenders: string[] = [];
    for (const { path, text } of files) {
      for (const match of text.matchAll(importPattern)) {
        const typeOnly = match[2] !== undefined;
        const spec = match[3]!;
        if (spec.startsWith('.')) {
          if (!path.startsWith(TESTING_DIR) && /(^|\/)testing\//.test(spec)) offenders.push(`${path}: ${spec} (the main entry must not load the testing entry)`);
          continue;
        }
        if (path.startsWith(TESTING_DIR) && TESTING_PACKAGES.has(spec)) continue;
        if (!ALLOWED_PACKAGES.has(spec)) offenders.push(`${path}: ${spec}`);
        else if (TYPE_ONLY_PACKAGES.has(spec) && !typeOnly) offenders.push(`${path}: ${spec} must be imported with "import type"`);
      }
      if (/\brequire\(|\bimport\(/.test(text)) offenders.push(`${path}: dynamic import or require`);
    }
    expect(offenders).toEqual([]);
  });

  it('never reads the clock or draws random numbers', () => {
    const offenders = files
      .filter(({ text }) => /Date\.now\(|new Date\(|Math\.random\(|performance\.now\(|crypto\./.test(text))
      .map(({ path }) => path);
    expect(offenders).toEqual([]);
  });

  it('uses no Node or browser globals for I/O', () => {
    const offenders = files
      .filter(({ text }) => /\b(process|fetch|setTimeout|setInterval|console|Buffer|globalThis)\b[.(]/.test(text))
      .map(({ path }) => path);
    expect(offenders).toEqual([]);
  });
});
