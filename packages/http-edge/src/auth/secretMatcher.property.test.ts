import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBearerMatcher, createSecretMatcher } from './secretMatcher.js';

describe('createSecretMatcher', () => {
  it('matches exactly when the received value === the secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.option(fc.string(), { nil: undefined }), (secret, received) => {
        expect(createSecretMatcher(secret).matches(received)).toBe(received === secret);
      }),
      { numRuns: 1000 },
    );
  });

  it('matches a received value equal to the secret (including non-ASCII and lengths that differ by one)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), (secret) => {
        const m = createSecretMatcher(secret);
        expect(m.matches(secret)).toBe(true);
        expect(m.matches(`${secret}x`)).toBe(false);
        expect(m.matches(secret.slice(0, -1))).toBe(false);
      }),
    );
  });

  it('never matches the secret repeated, a prefix of it or a value that differs in one unit (the comparison cycles the secret)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.integer({ min: 2, max: 4 }), fc.nat(), (secret, times, at) => {
        const m = createSecretMatcher(secret);
        expect(m.matches(secret.repeat(times))).toBe(false);
        const i = at % secret.length;
        const flipped = secret.slice(0, i) + String.fromCharCode(secret.charCodeAt(i) ^ 1) + secret.slice(i + 1);
        expect(m.matches(flipped)).toBe(false);
        expect(m.matches('')).toBe(false);
        expect(m.matches(undefined)).toBe(false);
      }),
    );
  });

  it('is disabled (everything passes) when no secret is configured', () => {
    for (const none of [undefined, '']) {
      const m = createSecretMatcher(none);
      expect(m.disabled).toBe(true);
      expect(m.matches(undefined)).toBe(true);
    }
  });
});

describe('createBearerMatcher', () => {
  it('matches "Bearer <key>" with any scheme case, and nothing else', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }).filter((k) => !k.startsWith(' ')), fc.string(), (key, other) => {
        const m = createBearerMatcher(key);
        expect(m.matches(`Bearer ${key}`)).toBe(true);
        expect(m.matches(`bEARER ${key}`)).toBe(true);
        expect(m.matches(key)).toBe(false);
        expect(m.matches(`Bearer ${other}`)).toBe(other === key);
      }),
    );
  });
});
