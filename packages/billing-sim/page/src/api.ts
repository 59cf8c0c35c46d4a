/**
 * The page's only way to the simulator: its public `/sim` and `/v2` routes (paths relative to the
 * page), with the API key once the simulator asked for it (kept for this tab by the shared key
 * store). A refusal becomes a `SimApiError` carrying the billing service's error envelope.
 */
import { createKeyStore, fetchJson, type KeyStore } from '@tenure/http-edge/page';

/** The page's API key (BILLING_SIM_API_KEY), kept in sessionStorage for this tab. */
export const apiKeys: KeyStore = createKeyStore('tenure-billing-sim.apiKey');

/** An answer that was not 2xx: its status and the envelope's `type`, `param` and `message`. */
export class SimApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** Resolves with the JSON body of a 2xx answer; rejects with a SimApiError otherwise. */
export async function simApi<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const answer = await fetchJson(apiKeys, path, init);
  if (answer.ok) return answer.body as T;
  // The billing service's envelope: { object: "error", type, param, message }.
  const error = answer.body as { type?: string; param?: string | null; message?: string } | undefined;
  const param = error?.param ? ` (${error.param})` : '';
  throw new SimApiError(answer.status, error?.type ?? 'http_error', `${error?.message ?? `HTTP ${answer.status}`}${param}`);
}

/** POSTs a JSON body (an empty object by default): every action of the page is one such call. */
export const post = <T>(path: string, body: unknown = {}): Promise<T> => simApi<T>(path, { method: 'POST', body });

/** A path segment, encoded (customer ids may hold `@`, `:` or `/`). */
export const seg = (s: string): string => encodeURIComponent(s);
