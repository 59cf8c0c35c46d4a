/**
 * The page's only way to the service: `fetch` with the API key (when the service asked for one),
 * kept in sessionStorage for this tab. Paths are relative to the page, so the dashboard works
 * mounted under a prefix too.
 */
import { createKeyStore, fetchJson, type KeyStore } from '@tenure/http-edge/page';

const KEY = 'tenure.apiKey';
const ENVIRONMENT = 'tenure.environment';

/** The environment shown: `production` (default) or `sandbox`, kept for this tab. */
export const currentEnvironment = (): 'production' | 'sandbox' => (sessionStorage.getItem(ENVIRONMENT) === 'sandbox' ? 'sandbox' : 'production');
/** Shows another environment from now on. */
export const setEnvironment = (environment: string): void => sessionStorage.setItem(ENVIRONMENT, environment);
/** `?environment=sandbox` when the sandbox is shown, else nothing (production is every route's default). */
export const environmentQuery = (): string => (currentEnvironment() === 'sandbox' ? '?environment=sandbox' : '');

/** An answer that was not 2xx, with the service's error envelope when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const keys = createKeyStore(KEY);
/** The page's API key, kept for the tab (the shared key store). */
export const apiKeys: KeyStore = keys;
/** The request's headers: the bearer key when one is stored. */
export const authHeaders = (extra: Record<string, string> = {}): Record<string, string> => keys.headers(extra);

/** Resolves with the JSON body of a 2xx answer; rejects with an ApiError otherwise. */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const answer = await fetchJson(keys, path, init);
  if (answer.ok) return answer.body as T;
  const error = (answer.body as { error?: { code?: string; message?: string } } | undefined)?.error;
  throw new ApiError(answer.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${answer.status}`);
}

/** The query string of the defined entries (empty values left out). */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}
