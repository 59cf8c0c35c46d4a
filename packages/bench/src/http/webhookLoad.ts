/**
 * `POST /webhook` load with autocannon, spread over one or more service URLs (replicas behind a load
 * balancer: connections split evenly, bodies taken round robin from one shared sequence, so each
 * event is sent once to one replica). Latencies are recorded per response, so the percentiles of
 * several replicas are exact, not averaged.
 */
import autocannon from 'autocannon';
import { summarize, type LatencySummary } from '../store/latency.js';

export const WEBHOOK_AUTH = 'Bearer bench-secret';

export interface LoadResult {
  completed: number;
  non2xx: number;
  errors: number;
  seconds: number;
  rps: number;
  latency: LatencySummary;
}

/** Hands out bodies in order across every autocannon instance of a run (and across runs, so ids stay distinct). */
export interface BodySource {
  next(): string;
}

export function bodySource(bodies: readonly string[]): BodySource {
  let i = 0;
  return { next: () => bodies[i++ % bodies.length]! };
}

/**
 * Given service URLs, a body source and a duration (or an amount of requests), posts webhooks with
 * `connections` connections in total and resolves with the completed count, req/s and latency.
 */
export async function postWebhooks(
  urls: readonly string[],
  bodies: BodySource,
  load: { seconds: number; connections: number } | { amount: number; connections: number },
): Promise<LoadResult> {
  const samples: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    urls.map((url, i) => {
      const connections = Math.max(1, Math.floor(load.connections / urls.length) + (i < load.connections % urls.length ? 1 : 0));
      // Without a callback autocannon returns its instance (an EventEmitter) made thenable; the
      // types only describe the promise side.
      const instance = autocannon({
        url: `${url}/webhook`,
        method: 'POST',
        connections,
        ...('seconds' in load ? { duration: load.seconds } : { amount: Math.ceil(load.amount / urls.length) }),
        headers: { 'content-type': 'application/json', authorization: WEBHOOK_AUTH },
        requests: [
          {
            setupRequest: (request) => {
              request.body = bodies.next();
              return request;
            },
          },
        ],
      }) as Promise<autocannon.Result> & autocannon.Instance;
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
        samples.push(responseTime);
        if (statusCode < 200 || statusCode >= 300) non2xx++;
      });
      instance.on('reqError', () => {
        errors++;
      });
      return instance;
    }),
  );
  const seconds = 'seconds' in load ? load.seconds : (performance.now() - started) / 1000;
  return { completed: samples.length, non2xx, errors, seconds, rps: samples.length / seconds, latency: summarize(samples) };
}
