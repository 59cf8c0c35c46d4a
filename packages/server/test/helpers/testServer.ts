/** Starts the real service on 127.0.0.1:0 with test doubles where the outside world would be. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createRetentionApp, createRetentionRequestListener, fixedClock, type RetentionOptions } from '../../src/index.js';
import { createMemoryChatNotifier, createMemoryEmailNotifier, createMemorySubscriberStore } from '../../src/index.js';
import { T0 } from './fixtures.js';

export type Mode = 'listener' | 'express';

export interface TestServer {
  url: string;
  clock: ReturnType<typeof fixedClock>;
  store: ReturnType<typeof createMemorySubscriberStore>;
  email: ReturnType<typeof createMemoryEmailNotifier>;
  chat: ReturnType<typeof createMemoryChatNotifier>;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  webhook(body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

const noSleep = () => Promise.resolve();

/** `mode` picks the standalone listener (fast webhook path) or the Express app alone (as mounted). */
export async function startTestServer(options: RetentionOptions = {}, mode: Mode = 'listener'): Promise<TestServer> {
  const clock = fixedClock(T0);
  const store = createMemorySubscriberStore();
  const email = createMemoryEmailNotifier();
  const chat = createMemoryChatNotifier();
  const full: RetentionOptions = {
    store,
    clock,
    notifiers: [email, chat],
    logger: pino({ level: 'silent' }),
    ...options,
    dispatch: { sleep: noSleep, ...options.dispatch },
  };
  let server: Server;
  let cleanup = async () => {};
  if (mode === 'listener') {
    const listener = createRetentionRequestListener(full);
    server = createServer(listener);
    cleanup = () => listener.close();
  } else {
    server = createServer(createRetentionApp(full));
  }
  // The client (undici) drops an idle pooled socket after 4 s, the server after its keepAliveTimeout
  // (5 s by default): on a loaded machine that 1 s margin is lost to event-loop delay, and a POST on a
  // socket the server just closed fails with ECONNRESET (undici does not retry a POST). The helper
  // ends every connection in close(), so the server side may keep them for the whole test.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request: TestServer['request'] = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    url,
    clock: (full.clock as TestServer['clock']) ?? clock,
    store,
    email,
    chat,
    request,
    webhook: (body, headers) => request('POST', '/webhook', body, headers),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cleanup();
    },
  };
}

/** Waits until `check` passes (polling every 5 ms, at most `ms`); `check` may be async. */
export async function eventually(check: () => void | Promise<void>, ms = 1000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}
