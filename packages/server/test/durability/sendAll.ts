/**
 * Sending many requests with bounded concurrency, keeping what each one got (or how it failed).
 * node:http with a keep-alive agent rather than fetch: fetch costs the test process ~1.4 ms of CPU
 * per request here, which would make the sender, not the service, the bottleneck, and then no
 * request is ever really in flight when the crash test kills the service.
 */
import { Agent, request } from 'node:http';

export type Delivery = { url: string; body: unknown };

/** What one request got: an HTTP answer, or an error (connection refused or reset: no answer). */
export type Outcome = { status: number; body: any } | { error: string };

export const answered = (o: Outcome | undefined): o is { status: number; body: any } => o !== undefined && 'status' in o;

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * POSTs `body` as JSON to `url` and reads the JSON answer. Never throws: a network failure is an
 * outcome. A reset on a reused keep-alive socket is retried once on a new one: that is the server
 * closing an idle connection as the request left (Node's documented keep-alive race), and the
 * request never reached it.
 */
export async function postJson(url: string, body: unknown): Promise<Outcome> {
  const payload = JSON.stringify(body);
  for (let attempt = 0; attempt < 2; attempt++) {
    const outcome = await postOnce(url, payload);
    if (!('retry' in outcome)) return outcome;
  }
  return { error: 'connection reset twice on reused sockets' };
}

function postOnce(url: string, payload: string): Promise<Outcome | { retry: true }> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: 'POST', agent, timeout: 10_000, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (error) => resolve({ error: error.message }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out after 10 s')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(req.reusedSocket && error.code === 'ECONNRESET' ? { retry: true } : { error: error.message }));
    req.end(payload);
  });
}

/**
 * Given deliveries, sends them with `concurrency` requests in flight, in order of the array (each
 * worker takes the next one), and returns the outcome of each by index; an index never sent stays
 * undefined. `after` runs on each outcome as it arrives; once `stop()` returns true no new request
 * starts (the ones in flight finish).
 */
export async function sendAll(
  deliveries: readonly Delivery[],
  concurrency: number,
  hooks: { after?: (index: number, outcome: Outcome) => void; stop?: () => boolean } = {},
): Promise<(Outcome | undefined)[]> {
  const outcomes: (Outcome | undefined)[] = new Array(deliveries.length).fill(undefined);
  let next = 0;
  const worker = async () => {
    while (next < deliveries.length && hooks.stop?.() !== true) {
      const index = next++;
      const { url, body } = deliveries[index]!;
      const outcome = await postJson(url, body);
      outcomes[index] = outcome;
      hooks.after?.(index, outcome);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

/**
 * Starts a POST of `body` that sends its headers and only the first half of the JSON, as a slow
 * client would: a request the service has started to receive and not answered. `written` resolves
 * once that half is on the socket; `outcome` settles when the connection ends (`finish()` sends the rest).
 */
export function startSlowPost(url: string, body: unknown): { written: Promise<void>; outcome: Promise<Outcome>; finish(): void } {
  const payload = JSON.stringify(body);
  const half = Math.floor(payload.length / 2);
  let outcome!: Promise<Outcome>;
  let req!: ReturnType<typeof request>;
  const written = new Promise<void>((resolveWritten) => {
    outcome = new Promise((resolve) => {
      req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: null }));
        res.on('error', (error) => resolve({ error: error.message }));
      });
      req.on('error', (error) => resolve({ error: error.message }));
      req.flushHeaders();
      req.write(payload.slice(0, half), () => resolveWritten());
    });
  });
  return { written, outcome, finish: () => req.end(payload.slice(half)) };
}
