/** Turning received bytes into text and JSON without ever guessing: invalid input is an answer, not a throw. */
import { isUtf8 } from 'node:buffer';

/** Text, or why the bytes are not text. */
export type DecodedText = { ok: true; text: string } | { ok: false; code: 'invalid_utf8' };

/** A JSON value, or why the text is not JSON. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; code: 'invalid_json' };

/**
 * Given bytes, returns them as text when they are valid UTF-8 (no replacement characters: two
 * different byte strings never become the same text), else `invalid_utf8`. Pure.
 *
 * @example
 * decodeUtf8(Buffer.from([0xff])); // { ok: false, code: 'invalid_utf8' }
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  if (!isUtf8(bytes)) return { ok: false, code: 'invalid_utf8' };
  return { ok: true, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}

/**
 * Given text, returns the JSON value it holds, else `invalid_json`. Never throws. Pure.
 *
 * @example
 * parseJsonText('{"a":1}'); // { ok: true, value: { a: 1 } }
 */
export function parseJsonText(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, code: 'invalid_json' };
  }
}
