/**
 * The framework-free request handler: authentication, JSON parsing, routing, rate-limit headers and
 * the billing service's error envelope for everything that goes wrong (never a 500 on bad input).
 */
import { createSecretMatcher } from '@tenure/http-edge';
import { fail } from '../machine/apiError.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { errorResponse, json, type SimRequest, type SimResponse } from './httpTypes.js';
import { buildOpenApi } from './openapi.js';
import { createRateLimiter, type RateLimitSettings } from './rateLimit/rateLimits.js';
import { compilePattern, createRouteFinder, type Route } from './route.js';
import { simRoutes } from '../control/simRoutes.js';
import { simApiRoutes, v2Routes } from './v2Routes.js';
import { v1Routes } from './v1Routes.js';
import { createV1Dispatcher, isV1Path } from '../v1/v1Route.js';
import { createMetricsEndpoint, type MetricsEndpoint } from '../metrics/metricsEndpoint.js';
import { createSimMetrics } from '../metrics/simMetrics.js';

export interface HandlerOptions {
  /**
   * When set, `/v2` and `/sim` require `Authorization: Bearer <apiKey>`, and it is API v1's secret key
   * (public keys are the projects' apps' own); unset, API v1 takes any key (development mode).
   */
  apiKey?: string | null;
  /** Wall clock for the rate-limit windows. Default `Date.now`. */
  wallClock?: () => number;
  /**
   * Rate limits per domain and API key (on by default, at the documented limits per minute): `false`
   * turns refusals off (usage headers stay), or settings scale the limits and the window.
   */
  rateLimits?: RateLimitSettings | false;
  /** `GET /metrics` without the API key even when one is set (METRICS_PUBLIC). Default false. */
  metricsPublic?: boolean;
}

/** The request handler, carrying its `GET /metrics` endpoint for the HTTP bindings. */
export type SimRequestHandler = ((req: SimRequest) => SimResponse) & { readonly metricsEndpoint?: MetricsEndpoint };

/**
 * Every route, API v2 first.
 *
 * @example
 * ROUTES.map((r) => `${r.method} ${r.pattern}`);
 */
export const ROUTES: readonly Route[] = [...v2Routes, ...simRoutes, ...simApiRoutes];
const COMPILED = ROUTES.map((route) => ({ route, match: compilePattern(route.pattern) }));
/** Every route by its pattern, API v1's too: what the request metrics are labelled with. */
const labelOf = createRouteFinder<Pick<Route, 'method' | 'pattern' | 'domain'>>([...ROUTES, ...v1Routes]);

/**
 * Given a simulator and options, returns the function that answers one request. Library code: it
 * never listens; bind it with `createBillingSimApp` or call it in-process.
 *
 * @example
 * const handle = createRequestHandler(sim);
 * handle({ method: 'GET', path: '/sim/clock', query: {}, headers: {}, rawBody: '' }).status; // 200
 */
export function createRequestHandler(sim: BillingSimulator, options: HandlerOptions = {}): SimRequestHandler & { readonly metricsEndpoint: MetricsEndpoint } {
  const wallClock = options.wallClock ?? Date.now;
  // Constant time in content and length (both sides hashed first): the shared edge's matcher.
  const apiAuth = options.apiKey ? createSecretMatcher(`Bearer ${options.apiKey}`) : undefined;
  const limiter = createRateLimiter(options.rateLimits === false ? { enabled: false } : (options.rateLimits ?? {}), wallClock);
  const metrics = createSimMetrics(sim);
  const metricsEndpoint = createMetricsEndpoint(metrics, apiAuth, options.metricsPublic ?? false);

  const answerV1 = createV1Dispatcher(v1Routes, apiAuth);

  const handle = (req: SimRequest): SimResponse => {
    if (isV1Path(req.path)) return answerV1(sim, req);
    const method = req.method.toUpperCase();
    if (method === 'GET' && req.path === '/health') return json(200, { status: 'ok', service: 'tenure-billing-sim' });
    if (method === 'GET' && req.path === '/openapi.json') return json(200, buildOpenApi([...ROUTES, ...v1Routes]));
    const guarded = req.path.startsWith('/v2') || req.path.startsWith('/sim');
    const auth = req.headers['authorization'] ?? '';
    if (guarded && apiAuth !== undefined && !apiAuth.matches(auth)) {
      return errorResponse(fail('authentication_error', 'Invalid API key').error);
    }
    if (/^\/v2\/coffee\/?$/.test(req.path)) {
      return errorResponse(fail('teapot', "I'm a teapot: the billing service refuses to brew coffee").error);
    }
    let body: unknown;
    if (req.rawBody.trim() !== '') {
      const type = req.headers['content-type'] ?? '';
      if (!type.toLowerCase().includes('application/json')) {
        return errorResponse(fail('invalid_request', 'Content-Type not application/json').error);
      }
      try {
        body = JSON.parse(req.rawBody);
      } catch {
        return errorResponse(fail('invalid_request', 'The request body is not valid JSON', 'body').error);
      }
    }
    for (const { route, match } of COMPILED) {
      if (route.method !== method) continue;
      const params = match(req.path);
      if (params === null) continue;
      const rate = route.domain === undefined ? null : limiter.take(route.domain, auth);
      if (rate?.limited) {
        const refused = errorResponse(fail('rate_limit_error', 'Rate limit exceeded').error);
        return { ...refused, body: { ...(refused.body as object), backoff_ms: rate.backoff_ms }, headers: rate.headers };
      }
      let res: SimResponse;
      try {
        res = route.handler(sim, { ...req, method, params, body });
      } catch (err) {
        res = errorResponse(fail('server_error', err instanceof Error ? err.message : 'Internal error').error);
      }
      return rate === null ? res : { ...res, headers: { ...rate.headers, ...res.headers } };
    }
    return errorResponse(fail('resource_missing', 'Resource not found').error);
  };
  // Every answer counted by route pattern (bounded labels: the route table), 429s also by domain.
  const counted = (req: SimRequest): SimResponse => {
    const res = handle(req);
    const method = req.method.toUpperCase();
    const route = labelOf(method, req.path);
    metrics.request(route === undefined ? 'other' : method, route?.pattern ?? 'other', res.status);
    if (res.status === 429 && route?.domain !== undefined) metrics.rateLimited(route.domain);
    return res;
  };
  return Object.assign(counted, { metricsEndpoint });
}
