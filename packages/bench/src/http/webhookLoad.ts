/**
 * `POST /webhook` load with autocannon, spread over one or more service URLs (replicas behind a load
 * balancer: connections split evenly, bodies taken round robin from one shared sequence, so each
 * event is sent once to one replica).
 */
import { loadUrls, type LoadResult, type LoadSize } from './autocannonLoad.js';

export type { LoadResult } from './autocannonLoad.js';

export const WEBHOOK_AUTH = 'Bearer bench-secret';

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
export function postWebhooks(urls: readonly string[], bodies: BodySource, load: LoadSize): Promise<LoadResult> {
  return loadUrls(
    urls,
    {
      method: 'POST',
      path: '/webhook',
      headers: { 'content-type': 'application/json', authorization: WEBHOOK_AUTH },
      setup: (request) => {
        request.body = bodies.next();
        return request;
      },
    },
    load,
  );
}
