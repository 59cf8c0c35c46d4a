/** Reading a request body as text with a byte limit, without a framework. */
import type { IncomingMessage } from 'node:http';

/** The webhook body limit: 1 MB. */
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
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        resolve({ ok: false, reason: 'too_large' });
        return;
      }
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
    };
    const onEnd = () => {
      cleanup();
      const text = chunks !== undefined ? Buffer.concat(chunks, size).toString('utf8') : (first?.toString('utf8') ?? '');
      resolve({ ok: true, text });
    };
    const onError = () => {
      cleanup();
      resolve({ ok: false, reason: 'aborted' });
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onError);
  });
}
