import { afterEach, describe, expect, it } from 'vitest';
import { P, startApp, type TestApp } from './helpers.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('authentication', () => {
  it('answers 401 authentication_error without the Bearer key when BILLING_SIM_API_KEY is set', async () => {
    app = await startApp({}, { apiKey: 'sk_test' });
    for (const headers of [{}, { authorization: 'sk_test' }, { authorization: 'Bearer wrong' }]) {
      const res = await app.call('GET', `${P}/virtual_currencies`, undefined, headers);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ object: 'error', type: 'authentication_error' });
    }
    expect((await app.call('GET', `${P}/virtual_currencies`, undefined, { authorization: 'Bearer sk_test' })).status).toBe(200);
    expect((await app.call('GET', '/sim/clock')).status).toBe(401);
  });
  it('is open when no key is configured', async () => {
    app = await startApp();
    expect((await app.call('GET', `${P}/virtual_currencies`)).status).toBe(200);
  });
});

describe('418', () => {
  it('answers a request to brew coffee with 418', async () => {
    app = await startApp();
    const res = await app.call('POST', '/v2/coffee', {});
    expect(res.status).toBe(418);
    expect(res.body.object).toBe('error');
  });
  it('answers 418 nowhere else', async () => {
    app = await startApp();
    expect((await app.call('POST', '/v2/tea', {})).status).toBe(404);
    expect((await app.call('POST', '/coffee', {})).status).toBe(404);
  });
});

describe('bad input never gives a 500', () => {
  it('answers invalid JSON with 400 invalid_request', async () => {
    app = await startApp();
    const res = await app.call('POST', `${P}/virtual_currencies`, '{"code": ', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ object: 'error', type: 'invalid_request' });
  });
  it('answers a body that is not application/json with 400 invalid_request', async () => {
    app = await startApp();
    const res = await app.call('POST', `${P}/virtual_currencies`, 'code=CRD', { 'content-type': 'text/plain' });
    expect(res.body).toMatchObject({ type: 'invalid_request', message: 'Content-Type not application/json' });
  });
  it('answers unknown routes with 404 resource_missing', async () => {
    app = await startApp();
    for (const [m, p] of [['GET', '/nope'], ['PUT', `${P}/virtual_currencies/X`], ['GET', '/v2/projects/proj1/nope'], ['GET', '/sim/nope']]) {
      const res = await app.call(m as string, p as string);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ object: 'error', type: 'resource_missing', retryable: false });
    }
  });
  it.each([['null'], ['[]'], ['"text"'], ['42'], ['{"code": {"a": 1}, "name": []}']])('answers body %s with a 4xx envelope', async (raw) => {
    app = await startApp();
    const res = await app.call('POST', `${P}/virtual_currencies`, raw, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.object).toBe('error');
  });
  it('answers bad /sim bodies with 400 naming the param and changes nothing', async () => {
    app = await startApp();
    const cases: [string, unknown, string][] = [
      ['/sim/products', { id: 'm', type: 'subscription' }, 'period'],
      ['/sim/products', { id: 'm', type: 'subscription', period: 'one month' }, 'period'],
      ['/sim/purchases', { product_id: 'm' }, 'customer_id'],
      ['/sim/clock/advance', { by: 'P1M', to: 5 }, 'by'],
      ['/sim/clock/advance', { by: -5 }, 'by'],
      ['/sim/webhook', { url: 'not a url' }, 'url'],
      ['/sim/webhook', { faults: { drop_rate: 2 } }, 'faults.drop_rate'],
    ];
    for (const [path, body, param] of cases) {
      const res = await app.call('POST', path, body);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ type: 'parameter_error', param });
    }
    expect(app.sim.world().products.size).toBe(0);
    expect(app.sim.webhookConfig().url).toBeNull();
  });
});

describe('GET /openapi.json', () => {
  it('documents API v2 and the /sim control API from the zod schemas', async () => {
    app = await startApp();
    const res = await app.call('GET', '/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining([
      '/v2/projects/{project_id}/virtual_currencies',
      '/v2/projects/{project_id}/customers/{customer_id}/virtual_currencies/transactions',
      '/sim/clock/advance',
      '/sim/purchases',
      '/sim/webhook',
    ]));
    const create = res.body.paths['/v2/projects/{project_id}/virtual_currencies'].post;
    expect(create.requestBody.content['application/json'].schema.properties.code).toMatchObject({ type: 'string' });
  });
});
