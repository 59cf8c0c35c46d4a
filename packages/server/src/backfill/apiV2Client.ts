/**
 * A small API v2 client (the backfill's reads, the offers' grants): GET and POST with the secret key, a timeout per request, the
 * documented rate-limit headers honoured (it paces itself once usage nears the limit, and waits
 * out a 429 for `backoff_ms`, else `Retry-After`), and bounded retries with exponential backoff on
 * 5xx answers and network failures. Anything else (401, 403, 404, another 4xx) is an `ApiV2Error`
 * at once: retrying cannot fix it.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

/** Why a request failed for good. */
export type ApiV2FailureKind = 'authentication' | 'authorization' | 'not_found' | 'request' | 'server' | 'network' | 'response';

/** A request that failed for good, with the status (null for a network failure), the API's message, its `param` and the answer's body (null without one). */
export class ApiV2Error extends Error {
  constructor(
    readonly kind: ApiV2FailureKind,
    readonly status: number | null,
    message: string,
    readonly param: string | null = null,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiV2Error';
  }
}

/** How to reach API v2 and how patient to be. */
export interface ApiV2ClientOptions {
  /** Base URL, e.g. `https://api.revenuecat.com/v2` (or a simulator's `http://127.0.0.1:4000/v2`). */
  baseUrl: string;
  /** The secret API key, sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Per request; default 30 000 ms. */
  timeoutMs?: number;
  /** Retries of a 5xx answer, a timeout or a network failure; default 5. */
  maxRetries?: number;
  /** First retry delay, doubled each time (capped at 30 s); default 500 ms. */
  retryBaseMs?: number;
  /** 429 answers waited out in a row before giving up; default 100. */
  maxRateLimitWaits?: number;
  /** The rate limit's window (a minute on the real service), to pace requests near the limit. */
  rateWindowMs?: number;
  /** Pacing starts once usage reaches this share of the limit; default 0.8. */
  paceAbove?: number;
  /** Stops waiting and requesting (the request in flight is aborted). */
  signal?: AbortSignal;
  /** Told of every wait: pacing, a 429, or a retry after a failure. */
  onWait?: (wait: { reason: 'pace' | 'rate_limit' | 'retry'; ms: number; status: number | null }) => void;
}

/** What the client did so far. */
export interface ApiV2Stats {
  requests: number;
  rate_limited: number;
  retries: number;
  waited_ms: number;
}

export interface ApiV2Client {
  /** GETs `path` (relative to the base URL, e.g. `/projects/p1/customers?limit=100`) and resolves with its JSON. */
  get(path: string): Promise<unknown>;
  /** POSTs `body` as JSON to `path` and resolves with the answer's status and JSON; rejects with an `ApiV2Error` as `get` does. */
  post(path: string, body: unknown): Promise<{ status: number; body: unknown }>;
  stats(): ApiV2Stats;
}

const numberHeader = (headers: Headers, name: string): number | null => {
  const text = headers.get(name);
  const n = text === null || text.trim() === '' ? Number.NaN : Number(text);
  return Number.isFinite(n) ? n : null;
};

/** The API's error message (`{ message }`), else the status line. */
const messageOf = (body: unknown, status: number) =>
  typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : `HTTP ${status}`;

const kindOf = (status: number): ApiV2FailureKind =>
  status === 401 ? 'authentication' : status === 403 ? 'authorization' : status === 404 ? 'not_found' : status >= 500 ? 'server' : 'request';

/**
 * Given where and how, returns a client. It reads no clock but the timers it sleeps on.
 *
 * @example
 * const api = createApiV2Client({ baseUrl: 'https://api.revenuecat.com/v2', apiKey: process.env.REVENUECAT_API_KEY ?? '' });
 * const page = await api.get('/projects/proj1ab2c3d4/customers?limit=100');
 */
export function createApiV2Client(options: ApiV2ClientOptions): ApiV2Client {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 5;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const maxRateLimitWaits = options.maxRateLimitWaits ?? 100;
  const windowMs = options.rateWindowMs ?? 60_000;
  const paceAbove = options.paceAbove ?? 0.8;
  const stats: ApiV2Stats = { requests: 0, rate_limited: 0, retries: 0, waited_ms: 0 };
  let paceMs = 0;

  const wait = async (reason: 'pace' | 'rate_limit' | 'retry', ms: number, status: number | null) => {
    if (ms <= 0) return;
    options.onWait?.({ reason, ms, status });
    stats.waited_ms += ms;
    // An abort rejects with the signal's reason, as the rest of the backfill does.
    await sleepFor(ms, undefined, options.signal === undefined ? undefined : { signal: options.signal }).catch((error: unknown) => {
      options.signal?.throwIfAborted();
      throw error;
    });
  };
  /** Near the limit, spread the requests left over the window instead of running into a 429. */
  const pace = (headers: Headers) => {
    const usage = numberHeader(headers, 'revenuecat-rate-limit-current-usage');
    const limit = numberHeader(headers, 'revenuecat-rate-limit-current-limit');
    paceMs = usage !== null && limit !== null && limit > 0 && usage >= limit * paceAbove ? Math.ceil(windowMs / limit) : 0;
  };

  const attempt = async (url: string, method: 'GET' | 'POST', payload: string | undefined): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
    stats.requests += 1;
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return fetch(url, { method, headers, signal, ...(payload === undefined ? {} : { body: payload }) });
  };

  /** One request with the pacing, waits and retries above; resolves with a 2xx answer. */
  const exchange = async (method: 'GET' | 'POST', path: string, payload: string | undefined): Promise<{ status: number; body: unknown }> => {
    const url = `${base}${path}`;
    let failures = 0;
    let limited = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      await wait('pace', paceMs, null);
      let response: Response;
      try {
        response = await attempt(url, method, payload);
      } catch (error) {
        options.signal?.throwIfAborted();
        const why = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
        if (failures >= maxRetries) throw new ApiV2Error('network', null, `${why} (after ${failures + 1} attempts)`);
        failures += 1;
        stats.retries += 1;
        await wait('retry', Math.min(retryBaseMs * 2 ** (failures - 1), 30_000), null);
        continue;
      }
      pace(response.headers);
      const text = await response.text();
      let body: unknown = null;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        if (response.ok) throw new ApiV2Error('response', response.status, `the answer to ${method} ${path} is not JSON`, null, text.slice(0, 2000));
      }
      if (response.ok) return { status: response.status, body };
      const status = response.status;
      const backoff = typeof body === 'object' && body !== null ? (body as { backoff_ms?: unknown }).backoff_ms : undefined;
      const retryAfter = numberHeader(response.headers, 'retry-after');
      const told = typeof backoff === 'number' && backoff >= 0 ? backoff : retryAfter !== null && retryAfter >= 0 ? retryAfter * 1_000 : null;
      if (status === 429) {
        stats.rate_limited += 1;
        if (limited >= maxRateLimitWaits) throw new ApiV2Error('request', status, `still rate limited after ${limited} waits: ${messageOf(body, status)}`, null, body);
        limited += 1;
        await wait('rate_limit', told ?? 1_000, status);
        continue;
      }
      if (status >= 500 && failures < maxRetries) {
        failures += 1;
        stats.retries += 1;
        await wait('retry', told ?? Math.min(retryBaseMs * 2 ** (failures - 1), 30_000), status);
        continue;
      }
      const after = status >= 500 ? ` (after ${failures + 1} attempts)` : '';
      const param = typeof body === 'object' && body !== null && typeof (body as { param?: unknown }).param === 'string' ? (body as { param: string }).param : null;
      throw new ApiV2Error(kindOf(status), status, `${status} ${messageOf(body, status)}${after}`, param, body ?? (text === '' ? null : text.slice(0, 2000)));
    }
  };

  return {
    get: async (path) => (await exchange('GET', path, undefined)).body,
    post: (path, body) => exchange('POST', path, JSON.stringify(body)),
    stats: () => ({ ...stats }),
  };
}
