/** Reading a request body with a byte limit, then checking that it is UTF-8, without a framework. */
import type { IncomingMessage } from 'node:http';
import { decodeUtf8 } from './decodeBody.js';

/** The default body limit of both services: 1 MB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The raw body, or why there is none. `aborted`: the client went away mid-body (answer nothing). */
export type ReadBytesResult = { ok: true; bytes: Buffer } | { ok: false; code: 'payload_too_large' | 'aborted' };

/** The body as text, or why there is none. */
export type ReadTextResult = { ok: true; text: string } | { ok: false; code: 'payload_too_large' | 'aborted' | 'invalid_utf8' };

/**
 * Given a request and a byte limit, resolves with the body's bytes, or `payload_too_large` as soon as
 * the declared or received size passes the limit (the rest is not buffered), or `aborted`. Never
 * rejects.
 *
 * @example
 * const body = await readBytes(req, DEFAULT_BODY_LIMIT);
 */
export function readBytes(req: IncomingMessage, limit: number = DEFAULT_BODY_LIMIT): Promise<ReadBytesResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume(); // discard, so the socket can still carry the answer
    return Promise.resolve({ ok: false, code: 'payload_too_large' });
  }
  return new Promise((resolve) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    let done = false;
    const finish = (result: ReadBytesResult) => {
      if (done) return;
      done = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) return finish({ ok: false, code: 'payload_too_large' }); // the rest is discarded
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
    });
    req.on('end', () => finish({ ok: true, bytes: chunks !== undefined ? Buffer.concat(chunks, size) : (first ?? Buffer.alloc(0)) }));
    // A client that disconnects mid-body: IncomingMessage emits 'error' (ECONNRESET "aborted").
    req.on('error', () => finish({ ok: false, code: 'aborted' }));
  });
}

/**
 * Like `readBytes`, then decodes the bytes as strict UTF-8: a body that is not valid UTF-8 is
 * `invalid_utf8` (never decoded with replacement characters). Never rejects.
 *
 * @example
 * const body = await readText(req, DEFAULT_BODY_LIMIT);
 * if (!body.ok) return answer(edgeProblem(body.code));
 */
export async function readText(req: IncomingMessage, limit: number = DEFAULT_BODY_LIMIT): Promise<ReadTextResult> {
  const read = await readBytes(req, limit);
  return read.ok ? decodeUtf8(read.bytes) : read;
}
