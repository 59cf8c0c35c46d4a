/** The HTTP port of webhook delivery: one POST, answered by a status or a network error. */

export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeout_ms: number;
}

export type TransportResult = { status: number } | { error: string };

/** Sends one webhook request. */
export type Transport = (request: TransportRequest) => Promise<TransportResult>;

/**
 * Returns the transport that POSTs with the global `fetch`, aborting after the request's timeout.
 *
 * @example
 * const transport = fetchTransport();
 * await transport({ url, headers: {}, body: '{}', timeout_ms: 60_000 }); // { status: 200 }
 */
export function fetchTransport(): Transport {
  return async ({ url, headers, body, timeout_ms }) => {
    try {
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeout_ms) });
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  };
}
