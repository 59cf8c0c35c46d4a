/**
 * Reading a web-standard `Request`'s body for the webhook: inflated when sent gzip or deflate (as
 * the Express route's body parser does), stopped at the byte limit without buffering the rest.
 */
import { WEBHOOK_BODY_LIMIT } from '../webhook/readBody.js';

/** The body's bytes, or why there are none. */
export type RequestBody = { ok: true; bytes: Uint8Array } | { ok: false; code: 'payload_too_large' | 'unsupported_encoding' };

const INFLATED = new Set(['gzip', 'deflate']);

/**
 * Given a request and a byte limit (of the inflated body), resolves with the body's bytes,
 * `payload_too_large` as soon as the declared or received size passes the limit, or
 * `unsupported_encoding` for a `content-encoding` other than identity, gzip or deflate. A body that
 * does not inflate rejects (the caller answers 400).
 *
 * @example
 * const body = await readRequestBody(request);
 */
export async function readRequestBody(request: Request, limit: number = WEBHOOK_BODY_LIMIT): Promise<RequestBody> {
  const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && !INFLATED.has(encoding)) return { ok: false, code: 'unsupported_encoding' };
  const declared = request.headers.get('content-length');
  if (encoding === 'identity' && declared !== null && Number(declared) > limit) return { ok: false, code: 'payload_too_large' };
  if (request.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const stream = encoding === 'identity' ? request.body : request.body.pipeThrough(new DecompressionStream(encoding as 'gzip' | 'deflate'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, code: 'payload_too_large' };
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return { ok: true, bytes: chunks[0]! };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}
