/**
 * How a page calls its service: `fetch` with the service's API key once the service asked for it,
 * the key kept in sessionStorage (this tab only, gone when it closes), and a dialog that asks for it
 * on the first 401 and says when a key was refused. Shared by the retention dashboard and the
 * simulator's control page, whose services check the same `Authorization: Bearer <key>`.
 */
import { byId } from './dom.js';

/** The API key of one page, kept for the tab. */
export interface KeyStore {
  get(): string | null;
  /** Keeps the key for this tab; null forgets it. */
  set(key: string | null): void;
  /** The given headers plus `authorization: Bearer <key>` when a key is kept. */
  headers(extra?: Record<string, string>): Record<string, string>;
}

/**
 * Given the sessionStorage item's name, returns the page's key store.
 *
 * @example
 * const keys = createKeyStore('tenure.apiKey');
 * fetch('api/at-risk', { headers: keys.headers() });
 */
export function createKeyStore(name: string): KeyStore {
  const get = () => sessionStorage.getItem(name);
  return {
    get,
    set: (key) => (key === null ? sessionStorage.removeItem(name) : sessionStorage.setItem(name, key)),
    headers(extra = {}) {
      const key = get();
      return key === null ? extra : { ...extra, authorization: `Bearer ${key}` };
    },
  };
}

/** A service's answer: status and its JSON body (undefined when the body was not JSON). */
export interface JsonAnswer {
  ok: boolean;
  status: number;
  body: unknown;
}

/**
 * Given a path relative to the page, a method and a body, sends the request with the key and
 * resolves with the answer, whatever its status (network failures reject).
 *
 * @example
 * const answer = await fetchJson(keys, 'sim/clock/advance', { method: 'POST', body: { by: 'P1D' } });
 */
export async function fetchJson(keys: KeyStore, path: string, init: { method?: string; body?: unknown } = {}): Promise<JsonAnswer> {
  const headers = keys.headers(init.body === undefined ? {} : { 'content-type': 'application/json' });
  const res = await fetch(path, { method: init.method ?? 'GET', headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the caller reports the status
  }
  return { ok: res.ok, status: res.status, body };
}

/** What the key dialog says, per service. */
export interface KeyDialogText {
  /** On the page while the key is missing ("This service needs its API key."). */
  needed: string;
  /** In the dialog after a 401 with a key ("That key was refused (401). Check TENURE_API_KEY…"). */
  refused: string;
}

/**
 * Wires the page's key dialog (`#key-dialog` with `#key-form`, `#key-input`, `#key-error`, and the
 * page's `#error` line): on submit the key is kept and `onKey` reloads; Escape does not dismiss it,
 * since without the key nothing can load. Returns `ask(refused)`, which opens it.
 *
 * @example
 * const { ask } = setUpKeyDialog(keys, text, () => void refresh());
 * ask(keys.get() !== null);
 */
export function setUpKeyDialog(keys: KeyStore, text: KeyDialogText, onKey: () => void): { ask(refused: boolean): void } {
  const dialog = byId<HTMLDialogElement>('key-dialog');
  const input = byId<HTMLInputElement>('key-input');
  dialog.addEventListener('cancel', (event) => event.preventDefault());
  byId<HTMLFormElement>('key-form').addEventListener('submit', () => {
    keys.set(input.value);
    input.value = '';
    onKey();
  });
  return {
    ask(refused) {
      const keyError = byId('key-error');
      keyError.hidden = !refused;
      keyError.textContent = refused ? text.refused : '';
      keys.set(null);
      const errorBox = byId('error');
      errorBox.hidden = false;
      errorBox.textContent = text.needed;
      if (!dialog.open) dialog.showModal();
      input.focus();
    },
  };
}
