/**
 * The dashboard's live updates: a bounded server-sent-events feed. Applied webhooks are coalesced
 * (one `change` event per flush interval, naming at most 50 customers), idle streams get a comment
 * heartbeat, the number of streams is capped, a client that stops reading is dropped (256 KB
 * buffered), and `close()` ends every stream so a graceful shutdown is not held up by open dashboards.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface LiveFeedOptions {
  /** Most open streams; one more is answered 503. Default 32. */
  maxClients?: number;
  /** A `: ping` comment this often, so proxies keep the stream open. Default 15 000 ms. */
  heartbeatMs?: number;
  /** Changes are sent at most this often. Default 250 ms. */
  flushMs?: number;
  /** Called with true when the first stream opens and with false when the last one closes. */
  onActive?: (active: boolean) => void;
}

/** A server-sent-events feed of changed subscribers. */
export interface LiveFeed {
  /** Starts a stream on `res`; false (nothing written) when the feed is full or closed. */
  attach(req: IncomingMessage, res: ServerResponse): boolean;
  /** Notes that `customerId` changed; sent with the next flush. */
  publish(customerId: string): void;
  /** Open streams. */
  readonly size: number;
  /** Ends every stream and refuses new ones. Idempotent. */
  close(): void;
}

/** A stream with more than this many bytes not yet taken by its client is dropped. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/** Most customer ids named by one `change` event; past it the event says `truncated`. */
export const MAX_IDS_PER_CHANGE = 50;

/**
 * Given the bounds, returns an empty feed. Its timers are unref'd and run only while a stream is
 * open. Not pure: it writes to the attached responses.
 *
 * @example
 * const feed = createLiveFeed({ maxClients: 8 });
 * app.get('/api/dashboard/live', (req, res) => { if (!feed.attach(req, res)) res.status(503).end(); });
 */
export function createLiveFeed(options: LiveFeedOptions = {}): LiveFeed {
  const maxClients = options.maxClients ?? 32;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const flushMs = options.flushMs ?? 250;
  const clients = new Set<ServerResponse>();
  const pending = new Set<string>();
  let truncated = false;
  let closed = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let flushTimer: NodeJS.Timeout | undefined;

  const broadcast = (text: string) => {
    for (const res of clients) {
      // A client that stopped reading would make us buffer for it forever: drop its connection
      // instead (a page that is still there falls back to polling and reconnects).
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
      else res.write(text);
    }
  };
  const flush = () => {
    flushTimer = undefined;
    if (pending.size === 0 && !truncated) return;
    const data = JSON.stringify({ customer_ids: [...pending], truncated });
    pending.clear();
    truncated = false;
    broadcast(`event: change\ndata: ${data}\n\n`);
  };
  const stopTimers = () => {
    clearInterval(heartbeat);
    clearTimeout(flushTimer);
    heartbeat = flushTimer = undefined;
    pending.clear();
    truncated = false;
  };

  return {
    attach(req, res) {
      if (closed || clients.size >= maxClients) return false;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no', // nginx: do not buffer the stream
      });
      res.write(`retry: 3000\nevent: hello\ndata: {}\n\n`);
      clients.add(res);
      if (clients.size === 1) options.onActive?.(true);
      heartbeat ??= setInterval(() => broadcast(': ping\n\n'), heartbeatMs).unref();
      const detach = () => {
        if (!clients.delete(res) || clients.size > 0) return;
        stopTimers();
        options.onActive?.(false);
      };
      req.once('close', detach);
      res.once('close', detach);
      return true;
    },
    publish(customerId) {
      if (clients.size === 0) return; // nobody is watching: keep nothing
      if (pending.size < MAX_IDS_PER_CHANGE) pending.add(customerId);
      else if (!pending.has(customerId)) truncated = true;
      flushTimer ??= setTimeout(flush, flushMs).unref();
    },
    get size() {
      return clients.size;
    },
    close() {
      closed = true;
      stopTimers();
      const open = clients.size > 0;
      for (const res of clients) res.end();
      clients.clear();
      if (open) options.onActive?.(false);
    },
  };
}
