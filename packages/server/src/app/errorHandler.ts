/** The last middlewares: 404 for unknown routes and one error shape for everything thrown. */
import type { NextFunction, Request, Response } from 'express';
import { decodeUtf8, edgeProblem } from '@tenure/http-edge';
import { apiError, edgeError, type HandlerResult } from '../http/apiError.js';
import type { Logger } from '../log/logger.js';

/** body-parser's error types, mapped to our codes (a table at the edge). */
const BODY_ERRORS: Record<string, () => HandlerResult> = {
  'entity.parse.failed': () => apiError('invalid_json', 'The request body is not valid JSON', 'body'),
  'entity.too.large': () => apiError('payload_too_large', 'The request body is larger than 1 MB', 'body'),
  'encoding.unsupported': () => apiError('unsupported_media_type', 'Unsupported body encoding', 'body'),
  'charset.unsupported': () => apiError('unsupported_media_type', 'Unsupported body charset', 'body'),
  'request.aborted': () => apiError('invalid_request', 'The request was aborted', 'body'),
  'request.size.invalid': () => apiError('invalid_request', 'The body size does not match Content-Length', 'body'),
  'stream.encoding.set': () => apiError('internal_error', 'The body stream was already read'),
  // Thrown by the JSON parser's `verify` hook (see `assertUtf8Body`).
  'entity.invalid.utf8': () => edgeError(edgeProblem('invalid_utf8')),
};

/**
 * body-parser `verify` hook: rejects a body that is not valid UTF-8 before it is decoded (the
 * decoder would substitute U+FFFD and two different ids could become one). The error handler
 * answers it 400 naming `body`.
 *
 * @example
 * router.use(express.json({ limit: '1mb', verify: assertUtf8Body }));
 */
export function assertUtf8Body(_req: unknown, _res: unknown, bytes: Buffer): void {
  if (!decodeUtf8(bytes).ok) throw Object.assign(new Error('The request body is not valid UTF-8'), { type: 'entity.invalid.utf8' });
}

/** Express handler answering 404 `not_found` in the error shape. */
export function notFound(req: Request, res: Response): void {
  const { status, body } = apiError('not_found', `No route for ${req.method} ${req.originalUrl.split('?')[0]}`);
  res.status(status).json(body);
}

/**
 * Given a logger, returns the Express error handler: body-parser errors become 400/413/415 in the
 * error shape, other 4xx errors from Express 400; anything else is logged and answered 500
 * `internal_error` without details.
 *
 * @example
 * app.use(errorHandler(logger));
 */
export function errorHandler(logger: Logger) {
  // Express recognises error handlers by their four parameters.
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const type = (error as { type?: unknown } | null)?.type;
    const status = (error as { status?: unknown } | null)?.status;
    const mapped =
      (typeof type === 'string' ? BODY_ERRORS[type]?.() : undefined) ??
      // Other client errors raised by Express itself (e.g. a malformed %-escape in a path parameter).
      (typeof status === 'number' && status >= 400 && status < 500 ? apiError('invalid_request', 'Malformed request') : undefined);
    const result = mapped ?? apiError('internal_error', 'Internal error');
    if (mapped === undefined) {
      const log = (res.locals['log'] as Logger | undefined) ?? logger;
      log.error({ err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) }, 'unhandled error');
    }
    if (res.headersSent) return void res.end();
    res.status(result.status).json(result.body);
  };
}
