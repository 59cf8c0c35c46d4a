/**
 * A client reading `GET /api/at-risk` pages back to back (one request at a time, as a dashboard or a
 * dispatch job would): each query of `AT_RISK_QUERY_STRINGS`, then a few more pages through
 * `next_cursor`, over and over until stopped.
 */
import { AT_RISK_QUERY_STRINGS } from '../store/atRiskQueries.js';
import { summarize, type LatencySummary } from '../store/latency.js';
import { API_AUTH } from './serveTarget.js';

export interface ReaderResult {
  pages: number;
  failed: number;
  latency: LatencySummary;
}

export interface RunningReader {
  stop(): Promise<ReaderResult>;
}

/** Given a service URL, starts reading at-risk pages (`pagesPerQuery` per query) until `stop()`. */
export function startAtRiskReader(url: string, pagesPerQuery = 4): RunningReader {
  const samples: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const qs of AT_RISK_QUERY_STRINGS) {
        let cursor: string | null = null;
        for (let page = 0; page < pagesPerQuery && running; page++) {
          const start = performance.now();
          const res = await fetch(`${url}/api/at-risk?${qs}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, {
            headers: { authorization: API_AUTH },
          });
          const body = (await res.json()) as { next_cursor?: string | null };
          samples.push(performance.now() - start);
          if (res.status !== 200) failed++;
          cursor = body.next_cursor ?? null;
          if (cursor === null) break;
        }
      }
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { pages: samples.length, failed, latency: summarize(samples) };
    },
  };
}

/** Reads one at-risk page (a warm-up, or the first query after a start) and returns how long it took, ms; throws unless 200. */
export async function readAtRiskOnce(url: string, qs = 'limit=50'): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${url}/api/at-risk?${qs}`, { headers: { authorization: API_AUTH } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET /api/at-risk?${qs} answered ${res.status}`);
  return performance.now() - start;
}
