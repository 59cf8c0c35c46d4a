/**
 * The HTTP benches' load generator: autocannon spread over one or more service URLs (replicas behind
 * a load balancer: connections split evenly), each request shaped just before it is sent (its body,
 * its path). Latencies are recorded per response, so the percentiles of several replicas are exact,
 * not averaged.
 */
import autocannon from 'autocannon';
import { summarize, type LatencySummary } from '../store/latency.js';

export interface LoadResult {
  completed: number;
  non2xx: number;
  errors: number;
  /** How long the load ran, measured (not the duration asked for). */
  seconds: number;
  rps: number;
  latency: LatencySummary;
  /** Response bytes read (headers included), all URLs together. */
  bytes: number;
}

/** How long to load: for a duration, or until an amount of requests is answered. */
/** How much load: for a duration or an amount of requests; `timeoutSeconds` per request (autocannon's default 10 s). */
export type LoadSize = ({ seconds: number; connections: number } | { amount: number; connections: number }) & { timeoutSeconds?: number };

/** The request every connection repeats: method, path and headers, and `setup` to shape each one before it is sent. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  setup?: (request: autocannon.Request) => autocannon.Request;
}

/**
 * autocannon's sampling interval (ms). A load for a duration stops at the first sample after the
 * duration ends, so with autocannon's default of 1 s a 1.5 s load ran 2 s and a 0.5 s warm-up 1 s
 * (and an integer duration a second more when the sample's timer fired first): 100 ms keeps a
 * load within a tenth of a second of what was asked.
 */
const SAMPLE_MS = 100;

/**
 * Given service URLs, the request and how long to load, sends it with `connections` connections in
 * total and resolves with the completed count, req/s over the time it measurably ran, latency and
 * bytes read.
 */
export async function loadUrls(urls: readonly string[], request: LoadRequest, load: LoadSize): Promise<LoadResult> {
  const samples: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let bytes = 0;
  const started = performance.now();
  await Promise.all(
    urls.map((url, i) => {
      const connections = Math.max(1, Math.floor(load.connections / urls.length) + (i < load.connections % urls.length ? 1 : 0));
      // Without a callback autocannon returns its instance (an EventEmitter) made thenable; the
      // types only describe the promise side.
      const instance = autocannon({
        url: `${url}${request.path}`,
        method: request.method,
        connections,
        sampleInt: SAMPLE_MS,
        ...('seconds' in load ? { duration: load.seconds } : { amount: Math.ceil(load.amount / urls.length) }),
        ...(load.timeoutSeconds === undefined ? {} : { timeout: load.timeoutSeconds }),
        headers: request.headers,
        requests: [request.setup === undefined ? {} : { setupRequest: request.setup }],
      }) as Promise<autocannon.Result> & autocannon.Instance;
      instance.on('response', (_client: unknown, statusCode: number, responseBytes: number, responseTime: number) => {
        samples.push(responseTime);
        bytes += responseBytes;
        if (statusCode < 200 || statusCode >= 300) non2xx++;
      });
      instance.on('reqError', () => {
        errors++;
      });
      return instance;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { completed: samples.length, non2xx, errors, seconds, rps: samples.length / seconds, latency: summarize(samples), bytes };
}
