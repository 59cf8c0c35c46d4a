// Regression: the simulator decoded bodies with replacement characters, so two customer ids that
// differ only in invalid bytes became one customer.
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const bodyWith = (prefix: string, bytes: number[], suffix: string) => Buffer.concat([Buffer.from(prefix), Buffer.from(bytes), Buffer.from(suffix)]);
const post = async (url: string, path: string, body: Buffer) => {
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe.each(['node', 'express'] as const)('a simulator body that is not valid UTF-8 (%s binding)', (binding) => {
  it('is a 400 envelope naming body, and two such customer ids never become one customer', async () => {
    app = await startApp({}, {}, binding);
    expect((await app.call('POST', '/sim/products', { id: 'pack', type: 'consumable' })).status).toBe(201);
    const eventsBefore = (await app.call('GET', '/sim/events')).body;
    for (const byte of [0xff, 0xfe]) {
      const res = await post(app.url, '/sim/purchases', bodyWith('{"customer_id":"cust-', [byte], '","product_id":"pack"}'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ object: 'error', type: 'invalid_request', param: 'body' });
    }
    expect((await app.call('GET', '/sim/events')).body).toEqual(eventsBefore);
  });
});
