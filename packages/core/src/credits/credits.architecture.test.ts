import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('.', import.meta.url));
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

describe('credits architecture', () => {
  it('imports only relative modules, zod and ts-pattern', () => {
    for (const file of sources) {
      const text = readFileSync(dir + file, 'utf8');
      for (const [, spec] of text.matchAll(/from\s+'([^']+)'/g)) {
        expect(spec === 'zod' || spec === 'ts-pattern' || spec?.startsWith('./') || spec?.startsWith('../'), `${file}: ${spec}`).toBe(true);
      }
    }
  });
  it('reads no clock and draws no random numbers', () => {
    for (const file of sources) {
      const text = readFileSync(dir + file, 'utf8');
      expect(text, file).not.toMatch(/Date\.now\(|Math\.random\(|new Date\(/);
    }
  });
});
