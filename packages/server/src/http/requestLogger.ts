/** Express middleware: a request id on every request and one structured log line per response. */
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../log/logger.js';
import { requestIdFrom } from './requestId.js';

/**
 * Given a logger, returns middleware that sets `x-request-id` (reusing a sane incoming one), puts a
 * child logger with that id on `res.locals.log`, and logs method, path, status and duration when the
 * response finishes. Headers are never logged (they carry secrets).
 *
 * @example
 * app.use(requestLogger(logger));
 */
export function requestLogger(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const id = requestIdFrom(req.headers['x-request-id']);
    const start = performance.now();
    const log = logger.child({ req_id: id });
    res.locals['log'] = log;
    res.setHeader('x-request-id', id);
    res.on('finish', () => {
      const ms = Math.round((performance.now() - start) * 10) / 10;
      const line = { method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms };
      if (res.statusCode >= 500) log.error(line, 'request failed');
      else log.info(line, 'request');
    });
    next();
  };
}
