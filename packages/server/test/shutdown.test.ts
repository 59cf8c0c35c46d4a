import { request } from 'node:http';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startRetentionServer, type ChatNotifier } from '../src/index.js';
import { fixture, T0 } from './helpers/fixtures.js';

describe('startRetentionServer shutdown', () => {
  it('stops accepting, finishes an in-flight request, and flushes pending alerts before resolving', async () => {
    let release!: () => void;
    const sent: string[] = [];
    const slowChat: ChatNotifier = {
      channel: 'chat',
      send: (alert) =>
        new Promise<void>((resolve) => {
          release = () => {
            sent.push(alert.customer_id);
            resolve();
          };
        }),
    };
    const running = await startRetentionServer({ port: 0, handleSignals: false, logger: pino({ level: 'silent' }), notifiers: [slowChat] });

    // An alert in flight: a billing issue auto-dispatches to the (slow) chat channel.
    const post = (body: unknown) => fetch(`${running.url}/webhook`, { method: 'POST', body: JSON.stringify(body) });
    await post(fixture('initial_purchase', { app_user_id: 'x', id: 'x1' }));
    await post(fixture('billing_issue', { app_user_id: 'x', id: 'x2', event_timestamp_ms: T0 + 1 }));

    // A request in flight: headers and half a body sent.
    const port = Number(new URL(running.url).port);
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/webhook', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const body = JSON.stringify(fixture('renewal', { app_user_id: 'x', id: 'x3' }));
      req.write(body.slice(0, 20));
      setTimeout(() => req.end(body.slice(20)), 100);
    });
    await new Promise((r) => setTimeout(r, 30));

    let closed = false;
    const closing = running.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 20));
    await expect(fetch(`${running.url}/health`)).rejects.toThrow(); // no new connections
    expect(await inFlight).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    expect(closed).toBe(false); // still waiting for the alert
    release();
    await closing;
    expect(sent).toEqual(['x']);
  });
});
