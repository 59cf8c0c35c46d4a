import fc from 'fast-check';
import { identifierProblem } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { decodeTimelineCursor, encodeTimelineCursor, MAX_TIMELINE_CURSOR_LENGTH } from './timelineCursor.js';

const idArb = fc.string({ unit: 'binary', minLength: 1, maxLength: 64 }).filter((id) => identifierProblem(id) === null);

describe('timeline cursor', () => {
  it('decodes what it encodes, for any storable id and time, within its length bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), idArb, (ms, id) => {
        const cursor = encodeTimelineCursor({ event_timestamp_ms: ms, id });
        expect(cursor.length).toBeLessThanOrEqual(MAX_TIMELINE_CURSOR_LENGTH);
        expect(decodeTimelineCursor(cursor)).toEqual({ event_timestamp_ms: ms, id });
      }),
    );
  });

  it('refuses texts it did not issue', () => {
    for (const text of ['', 'x', Buffer.from('[1]').toString('base64url'), Buffer.from('[1.5,"a"]').toString('base64url'), Buffer.from('["1","a"]').toString('base64url'), Buffer.from('[1,""]').toString('base64url')]) {
      expect(decodeTimelineCursor(text), text).toBeUndefined();
    }
  });
});
