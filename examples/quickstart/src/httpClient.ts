/** Minimal JSON-over-HTTP helpers for driving the two services. */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    where: string,
  ) {
    super(`${where} answered ${status}: ${JSON.stringify(body)}`);
  }
}

/** Sends a JSON request and returns the parsed body; throws HttpError on a non-2xx status. */
export async function call<T = unknown>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(url, init);
  const text = await response.text();
  const parsed: unknown = text === '' ? null : JSON.parse(text);
  if (!response.ok) throw new HttpError(response.status, parsed, `${method} ${url}`);
  return parsed as T;
}

/** Waits until the simulator has no webhook left to deliver (pending, delayed or retrying). */
export async function waitForDeliveries(billingUrl: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const log = await call<{ items: { state: string }[] }>('GET', `${billingUrl}/sim/webhooks/deliveries`);
    const open = log.items.filter((d) => d.state === 'pending' || d.state === 'delayed' || d.state === 'retrying');
    if (open.length === 0) return;
    if (Date.now() > until) throw new Error(`${open.length} webhook deliveries still open after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
