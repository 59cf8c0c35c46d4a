import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { eventClock } from '../src/index.js';
import { fixture, T0 } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/testServer.js';

let app: TestServer;
afterEach(() => app.close());

describe('POST /webhook transport details (standalone listener)', () => {
  it('accepts a gzip-compressed body (handed to Express, which inflates it)', async () => {
    app = await startTestServer();
    const res = await fetch(`${app.url}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(fixture('initial_purchase', { app_user_id: 'user_1' }))),
    });
    expect(res.status).toBe(200);
    expect((await app.store.get('user_1'))?.state).toBe('active');
  });

  it('survives a client that disconnects mid-body, storing nothing', async () => {
    app = await startTestServer();
    const port = Number(new URL(app.url).port);
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"event":');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 30);
      });
    });
    await new Promise((r) => setTimeout(r, 30));
    expect((await app.webhook(fixture('initial_purchase'))).status).toBe(200);
    expect(await app.store.count()).toBe(1);
  });

  it('answers 413 from the declared Content-Length without reading the body', async () => {
    app = await startTestServer();
    const port = Number(new URL(app.url).port);
    const head = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n');
      });
      socket.once('data', (chunk) => {
        resolve(chunk.toString('utf8'));
        socket.destroy();
      });
    });
    expect(head).toMatch(/^HTTP\/1\.1 413/);
    expect(head).toContain('"payload_too_large"');
  });

  it('moves an event clock with reported activity too', async () => {
    const clock = eventClock(() => 0);
    app = await startTestServer({ clock });
    await app.webhook(fixture('initial_purchase', { app_user_id: 'user_1' }));
    await app.request('POST', '/api/subscribers/user_1/activity', { at: T0 + 1000 });
    expect(clock.now()).toBe(T0 + 1000);
  });
});
