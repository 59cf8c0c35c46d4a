/** Reading a request body as text with a byte limit, without a framework. */
import type { IncomingMessage } from 'node:http';

/**
 * The webhook (and API) body limit: 1 MB; larger bodies are answered 413.
 *
 * @example
 * await readBody(req, WEBHOOK_BODY_LIMIT);
 */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export type ReadBodyResult = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * Given a request and a byte limit, resolves with the body as UTF-8 text, or `too_large` as soon as
 * the declared or received size passes the limit (the rest is not buffered).
 *
 * @example
 * const body = await readBody(req, WEBHOOK_BODY_LIMIT);
 */
export function readBody(req: IncomingMessage, limit: number): Promise<ReadBodyResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        resolve({ ok: false, reason: 'too_large' }); // the rest is discarded, not buffered
        return;
      }
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const text = chunks !== undefined ? Buffer.concat(chunks, size).toString('utf8') : (first?.toString('utf8') ?? '');
      resolve({ ok: true, text });
    });
    // A client that disconnects mid-body: IncomingMessage emits 'error' (ECONNRESET "aborted").
    req.on('error', () => {
      if (done) return;
      done = true;
      resolve({ ok: false, reason: 'aborted' });
    });
  });
}
