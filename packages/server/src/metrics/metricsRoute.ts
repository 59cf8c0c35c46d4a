/**
 * `GET /metrics` on Express, and the middleware that times every request the Express app answers
 * (the standalone server's webhook fast path times its own).
 */
import type { NextFunction, Request, Response } from 'express';
import { apiError } from '../http/apiError.js';
import { headerValue, type SecretMatcher } from '../http/secretMatcher.js';
import type { RetentionMetrics } from './retentionMetrics.js';
import { routeIndexOf } from './routeLabel.js';

/**
 * Given the metrics, the API key matcher and whether metrics are public, returns the handler of
 * `GET /metrics`: the Prometheus text exposition; 401 (with `www-authenticate: Bearer`) without the
 * bearer key when TENURE_API_KEY is set, unless `isPublic` (METRICS_PUBLIC=true). 503 if a gauge's
 * store read fails.
 *
 * @example
 * app.get('/metrics', metricsHandler(rt.metrics, rt.apiAuth, rt.metricsPublic));
 */
export function metricsHandler(metrics: RetentionMetrics, apiAuth: SecretMatcher, isPublic: boolean) {
  return async (req: Request, res: Response): Promise<void> => {
    if (!isPublic && !apiAuth.matches(headerValue(req.headers.authorization))) {
      const { status, body } = apiError('unauthorized', 'Missing or wrong bearer token (TENURE_API_KEY; METRICS_PUBLIC=true opens /metrics)');
      res.setHeader('www-authenticate', 'Bearer').status(status).json(body);
      return;
    }
    let scraped;
    try {
      scraped = await metrics.scrape();
    } catch {
      const { status, body } = apiError('unavailable', 'The subscriber store is unavailable; retry later');
      res.status(status).json(body);
      return;
    }
    res.setHeader('content-type', scraped.contentType);
    res.setHeader('cache-control', 'no-store');
    res.status(200).send(scraped.text);
  };
}

/**
 * Given the metrics, returns Express middleware that records each answered request in the
 * request histogram by route pattern (from the path relative to where the app is mounted) and
 * status class.
 *
 * @example
 * app.use(requestTimer(rt.metrics));
 */
export function requestTimer(metrics: RetentionMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = performance.now();
    const route = routeIndexOf(req.path);
    res.once('finish', () => metrics.httpRequest(route, res.statusCode, (performance.now() - start) / 1000));
    next();
  };
}
