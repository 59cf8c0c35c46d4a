import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, parseJsonText } from './decodeBody.js';

const strict = new TextDecoder('utf-8', { fatal: true });
const strictDecode = (bytes: Uint8Array): string | undefined => {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
};

describe('decodeUtf8', () => {
  it('either decodes a byte string that round-trips to the same bytes, or rejects it (as a strict decoder does)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const decoded = decodeUtf8(bytes);
        const reference = strictDecode(bytes);
        if (decoded.ok) {
          expect(Buffer.from(decoded.text, 'utf8').equals(Buffer.from(bytes))).toBe(true);
          expect(decoded.text).toBe(reference);
        } else {
          expect(reference).toBeUndefined();
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts the UTF-8 encoding of any well-formed string and returns that string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        expect(decodeUtf8(Buffer.from(text, 'utf8'))).toEqual({ ok: true, text });
      }),
    );
  });

  it('never maps two different byte strings to the same text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 16 }), fc.uint8Array({ maxLength: 16 }), (a, b) => {
        const x = decodeUtf8(a);
        const y = decodeUtf8(b);
        if (x.ok && y.ok && x.text === y.text) expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects the bytes that lenient decoding turns into U+FFFD (two ids that would become one)', () => {
    const a = Buffer.concat([Buffer.from('user-'), Buffer.from([0xff])]);
    const b = Buffer.concat([Buffer.from('user-'), Buffer.from([0xfe])]);
    expect(a.toString('utf8')).toBe(b.toString('utf8')); // what the services did before
    expect(decodeUtf8(a)).toEqual({ ok: false, code: 'invalid_utf8' });
    expect(decodeUtf8(b)).toEqual({ ok: false, code: 'invalid_utf8' });
  });

  it('works on a view into a larger buffer', () => {
    const big = Buffer.from('xx{"a":"é"}yy');
    expect(decodeUtf8(big.subarray(2, big.length - 2))).toEqual({ ok: true, text: '{"a":"é"}' });
  });
});

describe('parseJsonText', () => {
  it('never throws, and agrees with JSON.parse', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        let expected: { ok: true; value: unknown } | { ok: false; code: 'invalid_json' };
        try {
          expected = { ok: true, value: JSON.parse(text) as unknown };
        } catch {
          expected = { ok: false, code: 'invalid_json' };
        }
        expect(parseJsonText(text)).toEqual(expected);
      }),
    );
  });
});
