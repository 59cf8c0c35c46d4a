/**
 * `GET /metrics` of the simulator. The request handler is synchronous and answers JSON, while a
 * scrape is asynchronous text, so both HTTP bindings (node:http and Express) ask this endpoint,
 * which the handler carries, before calling the handler.
 */
import type { SecretMatcher } from '@tenure/http-edge';
import { fail, toErrorResponse } from '../machine/apiError.js';
import type { SimMetrics } from './simMetrics.js';

/** A finished answer: status, headers and the body text. */
export interface MetricsAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** What a request handler carries for `GET /metrics`. */
export interface MetricsEndpoint {
  readonly metrics: SimMetrics;
  /** Answers `GET /metrics` given the request's Authorization header. */
  answer(authorization: string | undefined): Promise<MetricsAnswer>;
}

const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}): MetricsAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  text: JSON.stringify(body),
});

/**
 * Given the metrics, the API key matcher (undefined when no key is set) and whether metrics are
 * public, returns the endpoint: the Prometheus text exposition, or 401 `authentication_error` (the
 * API's envelope) without `Authorization: Bearer <BILLING_SIM_API_KEY>` when a key is set, unless
 * public (METRICS_PUBLIC=true).
 *
 * @example
 * const endpoint = createMetricsEndpoint(createSimMetrics(sim), undefined, false);
 * (await endpoint.answer(undefined)).status; // 200
 */
export function createMetricsEndpoint(metrics: SimMetrics, apiAuth: SecretMatcher | undefined, isPublic: boolean): MetricsEndpoint {
  return {
    metrics,
    async answer(authorization) {
      if (!isPublic && apiAuth !== undefined && !apiAuth.matches(authorization ?? '')) {
        const refused = toErrorResponse(fail('authentication_error', 'Invalid API key (METRICS_PUBLIC=true opens /metrics)').error);
        return jsonAnswer(refused.status, refused.body, { 'www-authenticate': 'Bearer' });
      }
      try {
        const { contentType, text } = await metrics.scrape();
        return { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' }, text };
      } catch (err) {
        const failed = toErrorResponse(fail('server_error', err instanceof Error ? err.message : 'Internal error').error);
        return jsonAnswer(failed.status, failed.body);
      }
    },
  };
}

/**
 * Given a request's method and path, returns whether it is `GET /metrics` (a trailing slash
 * allowed, as on every route of the simulator). Pure.
 *
 * @example
 * isMetricsRequest('GET', '/metrics'); // true
 */
export function isMetricsRequest(method: string | undefined, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && (path === '/metrics' || path === '/metrics/');
}
