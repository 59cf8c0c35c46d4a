import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { shutdownServer } from '../src/index.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server = undefined;
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer({ keepAliveTimeout: 60_000 }, handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const get = (port: number, agent?: Agent) =>
  new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', ...(agent === undefined ? {} : { agent }) }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });

describe('shutdownServer', () => {
  it('lets an in-flight request finish, closes idle keep-alive sockets at once, then drains', async () => {
    let release!: () => void;
    const port = await listen((req, res) => {
      if (req.url !== '/') return void res.end('quick');
      const slow = new Promise<void>((r) => (release = r));
      void slow.then(() => res.end('done'));
    });
    // An answered keep-alive request leaves an idle socket open (keepAliveTimeout 60 s).
    const idleAgent = new Agent({ keepAlive: true });
    let idleClosed = false;
    await new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/x', agent: idleAgent }, (res) => {
        res.socket.once('close', () => (idleClosed = true));
        res.resume();
        res.on('end', resolve);
      });
      req.end();
    });
    const inFlight = get(port);
    await new Promise((r) => setTimeout(r, 50));
    const order: string[] = [];
    const started = performance.now();
    const done = shutdownServer(server!, { timeoutMs: 5000, drain: async () => void order.push('drain') }).then((report) => {
      order.push('closed');
      return report;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(idleClosed).toBe(true);
    expect(order).toEqual([]); // still waiting for the in-flight request
    release();
    expect(await inFlight).toBe(200);
    const report = await done;
    expect(order).toEqual(['drain', 'closed']);
    expect(report.drainAborted).toBe(false);
    expect(performance.now() - started).toBeLessThan(5000);
    idleAgent.destroy();
  }, 10_000);

  it('cuts connections and aborts the drain at the bound, and resolves just after it', async () => {
    const port = await listen(() => {}); // never answers
    const hung = get(port).catch(() => 'cut');
    await new Promise((r) => setTimeout(r, 50));
    let sawAbort = false;
    const started = performance.now();
    const report = await shutdownServer(server!, {
      timeoutMs: 300,
      drain: (signal) =>
        new Promise<void>((resolve) => {
          // The hung request holds the server to the bound, so the drain starts already aborted.
          if (signal.aborted) return resolve(void (sawAbort = true));
          signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve();
          });
        }),
    });
    const took = performance.now() - started;
    expect(await hung).toBe('cut');
    expect(report).toEqual({ connectionsCut: true, drainAborted: true });
    expect(sawAbort).toBe(true);
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1000);
  });

  it('resolves at once for an idle server and stops accepting', async () => {
    const port = await listen((_req, res) => res.end());
    const report = await shutdownServer(server!, { timeoutMs: 5000 });
    expect(report).toEqual({ connectionsCut: false, drainAborted: false });
    await expect(get(port)).rejects.toThrow();
  });
});

describe('shutdownServer drain', () => {
  it('gives the drain the time left until the bound, then aborts it', async () => {
    const port = await listen((_req, res) => res.end());
    expect(await get(port)).toBe(200);
    let abortedAfter = -1;
    const started = performance.now();
    const report = await shutdownServer(server!, {
      timeoutMs: 300,
      drain: (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(void (abortedAfter = performance.now() - started)))),
    });
    expect(report).toEqual({ connectionsCut: false, drainAborted: true });
    expect(abortedAfter).toBeGreaterThanOrEqual(290);
    expect(abortedAfter).toBeLessThan(1000);
  });
});

describe('shutdownServer and work scheduled after an answer', () => {
  it('lets callbacks a finished request scheduled with setImmediate start before the drain looks', async () => {
    await listen((_req, res) => res.end());
    let scheduled = false;
    setImmediate(() => (scheduled = true)); // as the retention service schedules an auto-dispatch
    let seenByDrain: boolean | undefined;
    await shutdownServer(server!, { timeoutMs: 1000, drain: async () => void (seenByDrain = scheduled) });
    expect(seenByDrain).toBe(true);
  });
});
